// Reading a sanitizer report the way a first-pass human triage does: which stack crashed, which of
// its frames are the project's own code, and where their functions are.

export interface StackFrame {
  index: number;
  /** As symbolized, C++ parameters included. */
  func: string;
  /** As the report names it, e.g. `/src/tlvkit/src/cursor.c`. */
  file: string;
  /** 0 when the report gives none. */
  line: number;
}

export interface CrashStack {
  /** The line above the stack: `READ of size 1 ...`, `freed by thread T0 here:` ... */
  title: string;
  frames: StackFrame[];
}

const FRAME = /^\s*#(\d+)\s+0x[0-9a-fA-F]+\s+in\s+(.+?)\s+(\S+?):(\d+)(?::\d+)?\s*$/;
// UBSan's own line, alone when it recovers: `proj/buffer.c:37:24: runtime error: signed integer overflow: ...`.
const RUNTIME_ERROR = /^(\S+?):(\d+)(?::\d+)?: runtime error: ([^:]+)/;
// A frame whose place has no line: a timeout's alarm can stop a loop on an instruction the debug info has no line for.
const FRAME_WITHOUT_LINE = /^\s*#(\d+)\s+0x[0-9a-fA-F]+\s+in\s+(.+?)\s+(\/\S+\.(?:c|cc|cpp|cxx|h|hh|hpp|inc|inl))\s*$/;
const ANY_FRAME = /^\s*#\d+\s/;
const RUNTIME_FUNCTIONS = /^(__interceptor_|__asan|__lsan|__msan|__tsan|__ubsan|__sanitizer|__libc_|_start$|main$|run_file$|fuzzer::|LLVMFuzzerRunDriver)/;
const RUNTIME_FILES = /(compiler-rt|libsanitizer|\/sanitizer_common\/|^\/usr\/(include|lib)\/|glibc|sysdeps\/|libFuzzer|\/libfuzzer\/)/;
const SECONDARY_TITLE = /(allocated by|freed by|created by|Uninitialized value was)/i;

/** Every stack in the report, in order; the first one is where it crashed. */
export function parseStacks(report: string): CrashStack[] {
  const stacks: CrashStack[] = [];
  let title = '';
  let current: CrashStack | undefined;
  for (const line of report.split('\n')) {
    if (!ANY_FRAME.test(line)) {
      if (line.trim()) title = line.trim();
      current = undefined;
      // UBSan names the place itself: a frame of its own, the stack (when printed) adding to it.
      const ubsan = RUNTIME_ERROR.exec(line.trim());
      if (ubsan) {
        current = { title, frames: [{ index: 0, func: '', file: ubsan[1], line: Number(ubsan[2]) }] };
        stacks.push(current);
      }
      continue;
    }
    const match = FRAME.exec(line);
    const index = Number(/#(\d+)/.exec(line)?.[1]);
    const afterUbsanLine = current?.frames.length === 1 && current.frames[0].func === '' && index === 0;
    if (afterUbsanLine && current && match) {
      current.frames = [];
    } else if (!current || index === 0) {
      current = { title, frames: [] };
      stacks.push(current);
    }
    if (match) current.frames.push({ index, func: match[2], file: match[3], line: Number(match[4]) });
    const lineless = match ? null : FRAME_WITHOUT_LINE.exec(line);
    if (lineless) current.frames.push({ index, func: lineless[2], file: lineless[3], line: 0 });
  }
  return stacks;
}

export type Sanitizer = 'AddressSanitizer' | 'MemorySanitizer' | 'UndefinedBehaviorSanitizer' | 'libFuzzer' | 'unknown';

/** Which tool wrote the report, and what it says went wrong. */
export interface ReportHeadline {
  sanitizer: Sanitizer;
  /** `heap-buffer-overflow`, `SEGV`, `use-of-uninitialized-value`, `signed integer overflow`, `deadly signal`, `timeout`, `out-of-memory`... */
  kind: string;
}

const HEADLINES: { sanitizer: Sanitizer; pattern: RegExp }[] = [
  // libFuzzer first: an out-of-memory under ASan is libFuzzer's finding, its stack runs through ASan.
  { sanitizer: 'libFuzzer', pattern: /ERROR: libFuzzer: (deadly signal|timeout|out-of-memory|[\w-]+)/ },
  { sanitizer: 'AddressSanitizer', pattern: /(?:ERROR|WARNING): AddressSanitizer: ([\w-]+)/ },
  { sanitizer: 'MemorySanitizer', pattern: /(?:ERROR|WARNING): MemorySanitizer: ([\w-]+)/ },
  { sanitizer: 'UndefinedBehaviorSanitizer', pattern: /runtime error: ([^:\n]+)/ },
];

/** The report's tool and kind of bug, for the write-up; `unknown`/`crash` for a report of no known shape. */
export function reportHeadline(report: string): ReportHeadline {
  for (const { sanitizer, pattern } of HEADLINES) {
    const kind = pattern.exec(report)?.[1];
    if (kind) return { sanitizer, kind: kind.trim() };
  }
  return { sanitizer: 'unknown', kind: /SUMMARY: \w+: (\S+)/.exec(report)?.[1] ?? 'crash' };
}

/** `heap-buffer-overflow` from the report's headline, for the write-up. */
export function bugKind(report: string): string {
  return reportHeadline(report).kind;
}

/** Frames of sanitizer runtime, libc and the fuzzing driver: never the answer. */
export function isRuntimeFrame(frame: StackFrame): boolean {
  return RUNTIME_FUNCTIONS.test(frame.func) || RUNTIME_FILES.test(frame.file);
}

/** The file holding LLVMFuzzerTestOneInput: the harness, a last resort only. */
export function harnessFile(stacks: readonly CrashStack[]): string | undefined {
  return stacks.flatMap((stack) => stack.frames).find((frame) => frame.func.startsWith('LLVMFuzzerTestOneInput'))?.file;
}

/** Where the tree probably holds a reported file: `/src/<project>/x.c` is `<project>/x.c` in src-vul. */
export function treeRelativePath(reportedFile: string): string {
  return reportedFile.replace(/^\/src\//, '').replace(/^\/+/, '');
}

/**
 * `ns::Parser::read(int)` is defined as `read` in its file: the name to look for and to report. Anonymous
 * namespaces and template arguments go first (`(anonymous namespace)::Table<char, int>::operator[](int)`
 * is `operator[]`).
 */
export function shortFunctionName(func: string): string {
  let name = func.replace(/\(anonymous namespace\)::/g, '');
  for (let previous = ''; previous !== name;) {
    previous = name;
    name = name.replace(/<[^<>]*>/g, '');
  }
  // The parameters start at the first `(`, or at the second for the call operator.
  const call = name.indexOf('operator()');
  const open = call >= 0 ? name.indexOf('(', call + 'operator()'.length) : name.indexOf('(');
  const withoutParameters = (open >= 0 ? name.slice(0, open) : name).trim();
  return withoutParameters.split('::').at(-1) ?? withoutParameters;
}

export interface Candidate {
  frame: StackFrame;
  /** The file relative to src-vul. */
  treeFile: string;
  why: string;
}

/**
 * Up to `limit` distinct functions: the top project frames of the crash stack, with the third place
 * going to the allocation or free site when the report has one (the object's origin is often where
 * a size went wrong). Harness frames come in only when nothing else is left.
 */
export function pickCandidates(stacks: readonly CrashStack[], located: ReadonlyMap<string, string>, limit = 3): Candidate[] {
  const harness = harnessFile(stacks);
  const own = (frame: StackFrame): boolean => !isRuntimeFrame(frame) && located.has(frame.file);
  const [crash, ...others] = stacks;
  const crashFrames = (crash?.frames ?? []).filter(own);
  const projectFrames = crashFrames.filter((frame) => frame.file !== harness);
  const secondary = others.find((stack) => SECONDARY_TITLE.test(stack.title));
  const origin = secondary?.frames.filter(own).find((frame) => frame.file !== harness);

  const picked: Candidate[] = [];
  const add = (frame: StackFrame | undefined, why: string): void => {
    const file = frame && located.get(frame.file);
    if (!frame || !file || picked.length >= limit) return;
    if (picked.some((candidate) => candidate.treeFile === file && candidate.frame.func === frame.func)) return;
    picked.push({ frame, treeFile: file, why });
  };
  const crashWhy = (frame: StackFrame): string => `frame #${frame.index} of the crash stack`;
  projectFrames.slice(0, limit - 1).forEach((frame) => add(frame, crashWhy(frame)));
  add(origin, `${secondary?.title.replace(/:$/, '') ?? 'origin'}, frame #${origin?.index}`);
  projectFrames.forEach((frame) => add(frame, crashWhy(frame)));
  if (picked.length === 0) crashFrames.forEach((frame) => add(frame, `${crashWhy(frame)} (fuzz harness)`));
  return picked;
}

export interface LineSpan {
  start: number;
  end: number;
}

/**
 * The enclosing function from `grep -n` lines of column-0 definitions and closing braces: the last
 * definition of `name` at or above the frame line, up to the first closing brace at or below it.
 */
export function enclosingFunction(grepOutput: string, name: string, frameLine: number): LineSpan | undefined {
  const lines = grepOutput
    .split('\n')
    .map((row) => /^(\d+):(.*)$/.exec(row))
    .filter((match): match is RegExpExecArray => match !== null)
    .map((match) => ({ number: Number(match[1]), text: match[2] }));
  const definition = new RegExp(`(^|[^A-Za-z0-9_])${escapeRegExp(name)}\\s*\\(`);
  const starts = lines.filter((row) => row.number <= frameLine && !row.text.startsWith('}') && definition.test(row.text) && !/;\s*$/.test(row.text));
  const start = starts.at(-1)?.number;
  if (start === undefined) return undefined;
  const end = lines.find((row) => row.number >= frameLine && row.text.startsWith('}'))?.number;
  return { start, end: end ?? frameLine };
}

/** A span of at most `maxLines` around the frame line: the whole function when it fits. */
export function spanAround(frameLine: number, fn: LineSpan | undefined, maxLines: number): LineSpan {
  if (!fn) return { start: Math.max(1, frameLine - 10), end: frameLine + 10 };
  if (fn.end - fn.start + 1 <= maxLines) return fn;
  const start = Math.max(fn.start, frameLine - Math.floor(maxLines / 2));
  return { start, end: Math.min(fn.end, start + maxLines - 1) };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
