import { useEffect } from 'react';
import { Route, Routes, useLocation } from 'react-router-dom';
import { FullPageSpinner } from '../../components/ui';
import { documentNavigation } from '../../lib/document-navigation';
import { AssessmentPage } from '../../features/student-flow/components/assessment-page';
import { CompletePage } from '../../features/student-flow/components/complete-page';
import { NotFoundPage } from '../../features/misc/components/not-found-page';
import { VerifyPage } from '../../features/verify/components/verify-page';

/**
 * Any page that is not a student page belongs to the other entry of the app (the admin portal and its
 * `/` redirect): the browser loads it as a new document.
 */
function LeaveStudentPages() {
  const { pathname, search } = useLocation();
  useEffect(() => documentNavigation.replace(pathname + search), [pathname, search]);
  return <FullPageSpinner label="Redirecting" />;
}

/**
 * The student entry's routes (SPEC §2): the welcome page and test, the completion page, and the public
 * certificate verification page. Declared as elements rather than a data router: the student pages load
 * no data through the router, and the data router's code would be a fifth of their JavaScript.
 */
export function StudentRoutes() {
  return (
    <Routes>
      <Route path="/assessment/:inviteToken" element={<AssessmentPage />} />
      <Route path="/assessment/:inviteToken/complete" element={<CompletePage />} />
      <Route path="/assessment/*" element={<NotFoundPage />} />
      <Route path="/verify/:code" element={<VerifyPage />} />
      <Route path="*" element={<LeaveStudentPages />} />
    </Routes>
  );
}
