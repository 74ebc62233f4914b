import { ERROR_REPORT_PATTERN, errorReportName, LOC_JSON_PATH, SOURCE_TREE, WORKSPACE } from './workspace-layout';

describe("a task's workspace", () => {
  it('is /workspace, with the tree in src-vul and the answer in shared/loc.json', () => {
    expect([WORKSPACE, `${WORKSPACE}/${SOURCE_TREE}`, LOC_JSON_PATH]).toEqual(['/workspace', '/workspace/src-vul', '/workspace/shared/loc.json']);
  });

  it("names the report after the task's id, or error.txt when the id is hidden", () => {
    expect([errorReportName('14368'), errorReportName(null)]).toEqual(['14368_error.txt', 'error.txt']);
  });

  it('finds the report named in a message, either way, and nothing else', () => {
    expect(ERROR_REPORT_PATTERN.exec('Read /workspace/14368_error.txt first.')?.[0]).toBe('/workspace/14368_error.txt');
    expect(ERROR_REPORT_PATTERN.exec('the report: /workspace/error.txt')?.[0]).toBe('/workspace/error.txt');
    expect(ERROR_REPORT_PATTERN.exec('/workspace/src-vul/errors.c')).toBeNull();
  });
});
