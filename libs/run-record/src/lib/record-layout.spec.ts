import { RecordError } from './record-error';
import { RecordLayout, recordsFolderOf } from './record-layout';

describe("a record's layout", () => {
  const layout = RecordLayout.of('/logs/log_1', '2026-11-23_22-59-01_ab12cd34');
  const folder = '/logs/log_1/assessments/2026-11-23_22-59-01_ab12cd34';

  it('puts a record under its run directory, its header, Result and lock at its top and its tasks under tasks/', () => {
    expect(recordsFolderOf('/logs/log_1')).toBe('/logs/log_1/assessments');
    expect([layout.folder, layout.runDir]).toEqual([folder, '/logs/log_1']);
    expect([layout.assessmentFile, layout.resultFile, layout.lockFile, layout.tasksFolder]).toEqual([
      `${folder}/assessment.json`,
      `${folder}/result.json`,
      `${folder}/.session.lock`,
      `${folder}/tasks`,
    ]);
  });

  it("names a task's folder by its result key, and its record task.json, the Result's name being its older one", () => {
    expect(layout.taskFolder('sample:1#2')).toBe(`${folder}/tasks/sample_1#2`);
    expect(layout.taskFile('arvo:14368')).toBe(`${folder}/tasks/arvo_14368/task.json`);
    expect(layout.taskFile('arvo:14368', 'loc.json')).toBe(`${folder}/tasks/arvo_14368/loc.json`);
    expect(layout.taskRecordFiles('sample:1')).toEqual([
      { name: 'task.json', path: `${folder}/tasks/sample_1/task.json` },
      { name: 'result.json', path: `${folder}/tasks/sample_1/result.json` },
    ]);
  });

  it('refuses a result key that is no task id, rather than a path out of the record', () => {
    expect(() => layout.taskFolder('../../etc:passwd')).toThrow(RecordError);
    expect(() => layout.taskFile('sample:1/..')).toThrow(/is not <source>:<id>/);
  });
});
