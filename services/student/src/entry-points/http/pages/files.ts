import { badRequest } from '@readiness/kit/errors';
import { fileSource, uploadedFile, uploadedName } from '@readiness/kit/files';
import { parse } from '@readiness/kit/http';
import { z } from 'zod';
import { TAGS, operation } from '../operation';
import { admissionOf, admitted, fileFields, oneFile, questionParams } from './answer-files';
import { INVALID_LINK, tokenParams } from './invitation-link';
import { MULTIPART_TYPE, bodyOf } from './media-types';
import { fileOut } from './page-schemas';

/** The answer files of the student's attempt in progress: uploaded one by one, removed. */
export const fileOperations = {
  'POST /api/student/{token}/files': operation({
    summary:
      'Upload the answer file of a file question (multipart: attemptId, questionId, file); replaces the earlier one',
    tags: [TAGS.flow.name],
    params: tokenParams,
    responses: {
      201: { description: 'The stored file', body: z.object({ file: fileOut }) },
      400: 'file_type: only pdf, doc, docx, txt, jpg, jpeg, png (by extension and content)',
      404: INVALID_LINK,
      409: 'attempt_closed',
      413: 'file_too_large; nothing is stored',
    },
    before: (deps) => [bodyOf(MULTIPART_TYPE), admitted(deps, { openAttempt: true }), oneFile(deps)],
    async handle({ params, req, res }, { attempts }) {
      const fields = parse(fileFields, req.body ?? {});
      const part = uploadedFile(req);
      if (!part) throw badRequest('Choose a file to upload', 'file_required');
      const file = await attempts.uploadFile(params.token, {
        attemptId: fields.attemptId,
        admitted: admissionOf(res),
        file: {
          questionId: fields.questionId,
          originalName: uploadedName(part),
          source: await fileSource(part),
        },
      });
      return { file };
    },
  }),
  'DELETE /api/student/{token}/files/{questionId}': operation({
    summary: 'Remove the answer file of a question from the attempt in progress',
    tags: [TAGS.flow.name],
    params: questionParams,
    responses: {
      200: { description: 'Removed', body: z.object({ message: z.string() }) },
      404: INVALID_LINK,
    },
    async handle({ params }, { attempts }) {
      await attempts.removeFile(params.token, params.questionId);
      return { message: 'File removed' };
    },
  }),
};
