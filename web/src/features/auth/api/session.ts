/** What other features may know of the session: who is signed in, and how to sign them out. */
export { logout, selectAdmin, selectIsSuperAdmin } from '../auth-slice';
