import { serviceApi } from '@readiness/kit/openapi';
import { liveScreen } from './live';
import { TAGS, type StudentApiDeps } from './operation';
import { studentPages } from './pages';
import { adminRetention } from './retention';
import { adminStudents } from './students';
import { waitingRoomOperations } from './waiting-room';

export type { StudentApiDeps } from './operation';

/**
 * The student service's API, each operation declared once, one module for each audience: the student's own
 * pages by invitation token (no login: the public invitation look-up, the flow, its files and event stream), the
 * admin's students under /api/admin/students (with the super admins' data retention setting under
 * /api/admin/students/retention) and the Live screen under /api/admin/live (the runtime's admin guard checks every
 * /api/admin call).
 */
export const studentApi = serviceApi<StudentApiDeps>({
  service: 'student',
  tags: [TAGS.students, TAGS.flow, TAGS.live, TAGS.retention],
  operations: {
    ...studentPages,
    ...adminStudents,
    ...liveScreen,
    ...adminRetention,
    ...waitingRoomOperations,
  },
});
