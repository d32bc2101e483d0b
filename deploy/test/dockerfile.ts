export interface Instruction {
  keyword: string;
  args: string;
}
export interface Stage {
  from: string;
  name?: string;
  instructions: Instruction[];
}

/** Splits a Dockerfile into stages of instructions (line continuations joined, comments dropped). */
export function parseDockerfile(text: string): { preamble: Instruction[]; stages: Stage[] } {
  const lines = text
    .replace(/\\\r?\n/g, ' ')
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  const preamble: Instruction[] = [];
  const stages: Stage[] = [];
  for (const line of lines) {
    const match = /^(\S+)\s+(.*)$/.exec(line);
    if (!match) continue;
    const instruction = { keyword: (match[1] as string).toUpperCase(), args: (match[2] as string).trim() };
    if (instruction.keyword === 'FROM') {
      const [from, , name] = instruction.args.split(/\s+/);
      stages.push({ from: from as string, name, instructions: [] });
    } else if (stages.length) {
      (stages[stages.length - 1] as Stage).instructions.push(instruction);
    } else {
      preamble.push(instruction);
    }
  }
  return { preamble, stages };
}

/** `${NAME}` and `$NAME` replaced by their values, as Docker does in COPY, ENV, WORKDIR and FROM. */
export function substitute(text: string, vars: Record<string, string>): string {
  return text.replace(/\$\{(\w+)\}|\$(\w+)/g, (whole, braced?: string, bare?: string) => {
    const name = (braced ?? bare) as string;
    return name in vars ? (vars[name] as string) : whole;
  });
}

/** `NAME=value` pairs of an ENV or ARG line (values without spaces or with double quotes). */
export function assignments(args: string): [string, string | undefined][] {
  return [...args.matchAll(/(\w+)(?:=("[^"]*"|\S*))?/g)].map((m) => [
    m[1] as string,
    m[2] === undefined ? undefined : m[2].replace(/^"(.*)"$/, '$1'),
  ]);
}

/** Flags (`--from=build`, `--parents`) and operands of a COPY or RUN line. */
export function splitFlags(args: string): { flags: Record<string, string>; rest: string } {
  const flags: Record<string, string> = {};
  let rest = args;
  for (;;) {
    const match = /^--([\w-]+)(?:=(\S+))?\s+/.exec(rest);
    if (!match) return { flags, rest };
    flags[match[1] as string] = match[2] ?? 'true';
    rest = rest.slice(match[0].length);
  }
}

/** A .dockerignore pattern as a regular expression over paths relative to the context (Docker's syntax). */
function ignorePattern(pattern: string): RegExp {
  const body = pattern
    .replace(/^\/+|\/+$/g, '')
    .split(/(\*\*\/|\*\*|\*|\?)/)
    .map((part) => {
      if (part === '**/') return '(?:.*/)?';
      if (part === '**') return '.*';
      if (part === '*') return '[^/]*';
      if (part === '?') return '[^/]';
      return part.replace(/[.+^${}()|[\]\\]/g, '\\$&');
    })
    .join('');
  return new RegExp(`^${body}$`);
}

/**
 * Whether a build context leaves `file` out, as Docker and buildah read `.dockerignore`: a pattern matching the
 * file or any folder above it counts, `!` takes back what came before, and the last pattern that matches wins.
 */
export function ignoredBy(dockerignore: string): (file: string) => boolean {
  const rules = dockerignore
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => ({ keep: l.startsWith('!'), pattern: ignorePattern(l.replace(/^!/, '')) }));
  return (file) => {
    const parts = file.split('/');
    const paths = parts.map((_, i) => parts.slice(0, i + 1).join('/'));
    let ignored = false;
    for (const rule of rules) if (paths.some((p) => rule.pattern.test(p))) ignored = !rule.keep;
    return ignored;
  };
}
