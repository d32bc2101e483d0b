import { useEffect } from 'react';
import { Route, Routes, useLocation } from 'react-router-dom';
import { FullPageSpinner } from '../../components/ui';
import { useT } from '../../i18n/react';
import { documentNavigation } from '../../lib/document-navigation';
import { AssessmentPage } from '../../features/student-flow/components/assessment-page';
import { CompletePage } from '../../features/student-flow/components/complete-page';
import { NotFoundView } from '../../features/misc/components/not-found-view';
import { VerifyCodePage, VerifyPage, VisitorShell } from '../../features/verify/components/verify-page';

/** The paths the server answers with the student pages (the gateway's STUDENT_PAGES): never left as a document. */
const STUDENT_PAGES = /^\/(assessment|verify)(\/|$)/;

/**
 * A student path that does not exist: the 404 page in the student pages' words, in the visitor's language chosen as
 * the verification page chooses it (no invitation says whose page it is), with the same switch.
 */
function StudentNotFound() {
  const t = useT();
  return (
    <VisitorShell ownMain className="student--not-found">
      <NotFoundView
        words={{
          title: t('notFound.title'),
          text: t('notFound.text'),
          home: t('notFound.home'),
          back: t('notFound.back'),
        }}
      />
    </VisitorShell>
  );
}

/**
 * Any page that is not a student page belongs to the other entry of the app (the admin portal and its
 * `/` redirect): the browser loads it as a new document.
 */
function LeaveStudentPages() {
  const { pathname, search } = useLocation();
  // Loading a student path as a new document would load these pages again, and again: say not found instead.
  const own = STUDENT_PAGES.test(pathname);
  const t = useT();
  useEffect(() => {
    if (!own) documentNavigation.replace(pathname + search);
  }, [own, pathname, search]);
  return own ? <StudentNotFound /> : <FullPageSpinner label={t('app.redirecting')} />;
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
      <Route path="/assessment/*" element={<StudentNotFound />} />
      <Route path="/verify" element={<VerifyCodePage />} />
      <Route path="/verify/:code" element={<VerifyPage />} />
      <Route path="/verify/*" element={<VerifyCodePage malformed />} />
      <Route path="*" element={<LeaveStudentPages />} />
    </Routes>
  );
}
