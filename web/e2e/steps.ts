/*
 * The steps the browser tests share: a new student of their own, invited through the API, and a screen opened
 * signed in.
 */
import type { Page } from 'playwright-core';
import { api } from './support';

let serial = 0;
/** A student no other test uses: `label`, the time and a counter make their name and address. */
export function someone(label: string): { name: string; email: string } {
  serial += 1;
  const tag = `${label}${Date.now().toString(36)}${serial}`;
  return { name: `Student ${tag}`, email: `${tag.toLowerCase()}@example.edu` };
}

export interface InvitedStudent {
  _id: string;
  name: string;
  email: string;
  status: string;
  inviteToken?: string;
  inviteUrl?: string;
}

/**
 * Invites `student` through the API as the admin of `token` (201 expected): the student as the API answers, with
 * the path of their assessment link and its token.
 */
export async function inviteStudent(
  url: string,
  token: string,
  student: { name: string; email: string },
): Promise<{ student: InvitedStudent; link: string; inviteToken: string }> {
  const res = await api<{ student: InvitedStudent }>(url, 'POST', '/api/admin/students/invite', {
    token,
    body: student,
  });
  expect(res.status).toBe(201);
  const link = res.body.student.inviteUrl
    ? new URL(res.body.student.inviteUrl).pathname
    : `/assessment/${res.body.student.inviteToken}`;
  return { student: res.body.student, link, inviteToken: decodeURIComponent(link.split('/').pop()!) };
}

/** Opens `path` signed in by `token` (no sign-in screen, so no welcome toast covers it). */
export async function openSignedIn(page: Page, token: string, path: string): Promise<void> {
  await page.goto('/admin/login');
  await page.evaluate((t) => localStorage.setItem('admin_token', t), token);
  await page.goto(path);
}
