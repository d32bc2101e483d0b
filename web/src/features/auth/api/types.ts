export type AdminRole = 'admin' | 'super_admin';
export type AdminStatus = 'active' | 'disabled';

export interface Admin {
  _id: string;
  name: string;
  email: string;
  role: AdminRole;
  status: AdminStatus;
  lastLogin: string | null;
  createdAt: string;
  mustChangePassword?: boolean;
  /** Has a second factor (an authenticator app). */
  mfaEnabled?: boolean;
}

export const ROLE_LABELS: Record<AdminRole, string> = { admin: 'Admin', super_admin: 'Super Admin' };
