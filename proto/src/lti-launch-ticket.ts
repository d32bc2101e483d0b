import { z } from 'zod';

/**
 * The hand-over of an LTI 1.3 learner launch from the integrations service, which verified it, to the student
 * service, which owns students and their links. Services do not call each other, so the browser carries it: the
 * launch answers 303 to `LTI_LAUNCH_TICKET_PATH?ticket=…`, the ticket sealed (AES-256-GCM) with the key the services
 * already share for events' secrets, bound to this purpose, so nobody else can make one and its name and e-mail are
 * not readable in the address. Good for a minute and once: the student service keeps each ticket's id.
 */
export const LTI_LAUNCH_TICKET_PURPOSE = 'readiness lti launch ticket v1';

/** Where the browser takes the ticket (the student service; public, through the gateway). */
export const LTI_LAUNCH_TICKET_PATH = '/api/student/lti/launch';

/** How long a ticket is good for, from its issue: the browser follows the redirect at once. */
export const LTI_LAUNCH_TICKET_TTL_SECONDS = 60;

export const ltiLaunchTicketSchema = z.object({
  /** The launch's id (the integrations service's row): the ticket's own id, used once. */
  launchId: z.uuid(),
  /** The LMS (its issuer) and the person in it (`sub`): one student per pair. */
  issuer: z.string().min(1).max(2048),
  subject: z.string().min(1).max(255),
  name: z.string().max(200),
  /** Absent when the LMS gives none: the student is then known by the LMS's id alone. */
  email: z.string().max(254).optional(),
  /** Unix seconds after which the ticket is refused. */
  expiresAt: z.number().int(),
});

export type LtiLaunchTicket = z.infer<typeof ltiLaunchTicketSchema>;
