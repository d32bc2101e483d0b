/** LMS connections and webhooks are a super admin's: the runtime's guard let an admin in, this keeps the others out. */
export { superAdminId } from '@readiness/kit/auth';
