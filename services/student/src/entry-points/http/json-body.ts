import { z } from 'zod';

/** A JSON request body of these fields; anything but an object is refused with the one message. */
export const jsonBody = <T extends z.ZodRawShape>(shape: T) =>
  z.object(shape, { error: 'Request body must be a JSON object' });
