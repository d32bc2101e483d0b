import { takenEmails } from '../../data-access/students-repository';
import { ALREADY_INVITED_MESSAGE, type StudentInput, type StudentsDeps } from './context';
import { inviteStudents } from './invite-students';

export interface ImportRowProblem {
  line: number;
  email: string;
  message: string;
}

export interface ImportRow {
  line: number;
  parsed: { ok: true; value: StudentInput } | { ok: false; email: string; message: string };
}

/** The file's own problems (a row refused, an e-mail already on an earlier line) and the rows left to invite. */
export function checkRows(rows: ImportRow[]) {
  const problems: ImportRowProblem[] = [];
  const seen = new Map<string, number>();
  const candidates: Array<{ line: number; value: StudentInput }> = [];
  for (const row of rows) {
    if (!row.parsed.ok) {
      problems.push({ line: row.line, email: row.parsed.email, message: row.parsed.message });
      continue;
    }
    const first = seen.get(row.parsed.value.email);
    if (first !== undefined) {
      problems.push({
        line: row.line,
        email: row.parsed.value.email,
        message: `Duplicate email in the file (first on line ${first})`,
      });
      continue;
    }
    seen.set(row.parsed.value.email, row.line);
    candidates.push({ line: row.line, value: row.parsed.value });
  }
  return { problems, candidates };
}

/**
 * Checks every row (line numbers as in the file, the header being line 1) and, unless `dryRun`, invites the
 * valid ones all together or none.
 */
export async function importStudents(
  deps: StudentsDeps,
  rows: ImportRow[],
  options: { dryRun: boolean; actorId: string },
) {
  const { problems, candidates } = checkRows(rows);
  const taken = await takenEmails(
    deps.database.db,
    candidates.map((c) => c.value.email),
  );
  const valid = candidates.filter((c) => {
    if (!taken.has(c.value.email)) return true;
    problems.push({ line: c.line, email: c.value.email, message: ALREADY_INVITED_MESSAGE });
    return false;
  });
  problems.sort((a, b) => a.line - b.line);
  let imported = 0;
  if (!options.dryRun && valid.length > 0) {
    const invited = await inviteStudents(
      deps,
      valid.map((v) => v.value),
      options.actorId,
      'student.imported',
    );
    imported = invited.length;
  }
  return { dryRun: options.dryRun, total: rows.length, valid: valid.length, imported, problems };
}
