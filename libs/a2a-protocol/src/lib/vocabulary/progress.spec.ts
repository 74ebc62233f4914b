import {
  formatSolverStep,
  formatTaskProgress,
  formatTaskProgressData,
  parseSolverStep,
  parseTaskProgress,
  parseTaskProgressLines,
  type TaskProgressLine,
} from './progress';

describe('solver step lines', () => {
  it('round-trip, with the detail after a bar', () => {
    const text = formatSolverStep({ step: 3, command: 'grep -n foo src/a.c', detail: 'tokens in 10 out 2' });

    expect(text).toBe('step 3: grep -n foo src/a.c | tokens in 10 out 2');
    expect(parseSolverStep(text)).toEqual({ step: 3, command: 'grep -n foo src/a.c', detail: 'tokens in 10 out 2' });
  });

  it('fold a multi-line command onto one line', () => {
    expect(formatSolverStep({ step: 1, command: "cat > x <<'EOF'\n{}\nEOF" })).toBe("step 1: cat > x <<'EOF' {} EOF");
  });

  it('are not found in other texts', () => {
    expect(parseSolverStep('Submitted: loc.json submitted')).toBeUndefined();
  });
});

describe('assessment progress lines', () => {
  const lines: TaskProgressLine[] = [
    { task: 'sample:1', kind: 'started' },
    { task: 'arvo:14368', kind: 'step', step: 7, command: 'ls /workspace' },
    { task: 'sample:2', kind: 'finished', status: 'scored', detail: 'file_acc 1' },
    { task: 'sample:2', kind: 'finished', status: 'failed', detail: '' },
    { task: 'sample:3', kind: 'note', text: 'sandbox arvo_3_ab started (docker)' },
  ];

  it.each(lines)('round-trip: %o', (line) => {
    expect(parseTaskProgress(formatTaskProgress(line))).toEqual(line);
  });

  it('tell a pull by its layers and bytes, and read it back as a note', () => {
    const pull: TaskProgressLine = {
      task: 'arvo:123',
      kind: 'pull',
      image: 'n132/arvo:123-vul',
      layers: 7,
      layersDone: 3,
      bytes: 1288490189,
      bytesDone: 432013312,
    };
    const text = formatTaskProgress(pull);

    expect(text).toBe('[arvo:123] pulling n132/arvo:123-vul: 3/7 layers, 412.0 MiB of 1.2 GiB');
    expect(parseTaskProgress(text)).toEqual({ task: 'arvo:123', kind: 'note', text: 'pulling n132/arvo:123-vul: 3/7 layers, 412.0 MiB of 1.2 GiB' });
  });

  it('leave lines that name no task alone', () => {
    expect(parseTaskProgress('assessment of 3 tasks started')).toBeUndefined();
  });
});

describe('assessment progress as data', () => {
  const lines: TaskProgressLine[] = [
    { task: 'sample:1', kind: 'started' },
    { task: 'arvo:14368', kind: 'step', step: 7, command: 'ls /workspace' },
    { task: 'sample:2', kind: 'finished', status: 'scored', detail: '' },
    { task: 'sample:3', kind: 'note', text: 'sandbox started' },
    { task: 'arvo:123', kind: 'pull', image: 'n132/arvo:123-vul', layers: 7, layersDone: 3, bytes: 1288490189, bytesDone: 432013312 },
  ];

  it.each(lines)('travels as a data part and is read back from a status update: %o', (line) => {
    const data = JSON.parse(JSON.stringify(formatTaskProgressData(line)));

    expect(parseTaskProgressLines([{ results_file: '/r.json' }, data])).toEqual([line]);
  });

  it('reads every line of an update that carries several, in order', () => {
    const data = lines.map((line) => JSON.parse(JSON.stringify(formatTaskProgressData(line))));

    expect(parseTaskProgressLines([data[2], { record_dir: '/r' }, data[0], data[4]])).toEqual([lines[2], lines[0], lines[4]]);
  });

  it('passes over a data part that holds no well-formed line', () => {
    expect(parseTaskProgressLines([])).toEqual([]);
    expect(
      parseTaskProgressLines([{ task_progress: { task: 'sample:1', kind: 'step', step: 'two', command: 'ls' } }, { task_progress: { kind: 'started' } }, null]),
    ).toEqual([]);
  });
});
