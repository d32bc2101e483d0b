import { describeService } from '@readiness/kit/openapi';
import { z } from 'zod';
import { idParams, importQuery, inviteBody, listQuery, patchBody, tokenParams } from './schemas';

const TAG = 'Students';

export const studentOut = z.object({
  _id: z.string(),
  name: z.string(),
  email: z.string(),
  phoneNumber: z.string().optional(),
  status: z.enum(['invited', 'started', 'completed']),
  inviteToken: z.string(),
  inviteUrl: z.string(),
  extraTimePercent: z.number().int(),
  createdAt: z.string(),
  invitedAt: z.string(),
  expiresAt: z.string(),
  expired: z.boolean(),
});

const paginationOut = z.object({
  currentPage: z.number().int(),
  totalPages: z.number().int(),
  totalResults: z.number().int(),
  hasNext: z.boolean(),
  hasPrev: z.boolean(),
});

const withMessage = z.object({ message: z.string(), student: studentOut });

const importOut = z.object({
  dryRun: z.boolean(),
  total: z.number().int(),
  valid: z.number().int(),
  imported: z.number().int(),
  problems: z.array(z.object({ line: z.number().int(), email: z.string(), message: z.string() })),
});

/** The student service's API, from the schemas its routes validate with. */
export const openApi = describeService({
  service: 'student',
  tags: [{ name: TAG, description: 'Invited students and their invitation links' }],
  operations: {
    'GET /api/admin/students': {
      summary: 'Students, newest first: search (name or e-mail), status, page and limit (at most 100)',
      tags: [TAG],
      admin: true,
      query: listQuery,
      responses: {
        200: {
          description: 'One page',
          body: z.object({ students: z.array(studentOut), pagination: paginationOut }),
        },
        400: 'A query parameter is out of range',
        401: 'Not signed in',
      },
    },
    'POST /api/admin/students/invite': {
      summary: 'Invite a student; the invitation mail is queued',
      tags: [TAG],
      admin: true,
      body: inviteBody,
      responses: {
        201: { description: 'The student', body: withMessage },
        400: 'A validation rule is broken',
        401: 'Not signed in',
        409: 'A student with this email is already invited',
      },
    },
    'POST /api/admin/students/import': {
      summary: 'Invite students from a CSV (multipart field file; name,email,phoneNumber,extraTimePercent)',
      tags: [TAG],
      admin: true,
      query: importQuery,
      responses: {
        200: { description: 'Every row problem by line; with dryRun nothing is saved', body: importOut },
        400: 'No file, or no header line naming name and email',
        401: 'Not signed in',
        409: 'An e-mail was invited meanwhile; nothing was imported',
        413: 'The file is too large',
      },
    },
    'POST /api/admin/students/{id}/resend-assessment': {
      summary: 'Resend the invitation; an unstarted invitation gets a new link and a new expiry',
      tags: [TAG],
      admin: true,
      params: idParams,
      responses: {
        200: { description: 'The student', body: withMessage },
        401: 'Not signed in',
        404: 'Student not found',
      },
    },
    'PATCH /api/admin/students/{id}': {
      summary: 'Set the extra-time accommodation (0 to 300 percent)',
      tags: [TAG],
      admin: true,
      params: idParams,
      body: patchBody,
      responses: {
        200: { description: 'The student', body: z.object({ student: studentOut }) },
        400: 'Out of range',
        401: 'Not signed in',
        404: 'Student not found',
      },
    },
    'DELETE /api/admin/students/{id}': {
      summary: 'Erase the student everywhere (student.student.deleted.v1); cannot be undone',
      tags: [TAG],
      admin: true,
      params: idParams,
      responses: {
        200: { description: 'Deleted', body: z.object({ message: z.string() }) },
        401: 'Not signed in',
        404: 'Student not found',
      },
    },
    'GET /api/student/{token}': {
      summary: 'The student behind an invitation link; opening it changes nothing',
      tags: [TAG],
      params: tokenParams,
      responses: {
        200: {
          description: 'Name and e-mail',
          body: z.object({ student: z.object({ name: z.string(), email: z.string() }) }),
        },
        404: 'Invalid or expired invitation link (unknown, expired and deleted alike)',
      },
    },
  },
});
