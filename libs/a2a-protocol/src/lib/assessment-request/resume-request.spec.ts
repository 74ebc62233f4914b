import { formatResumeRequest, readResumeConfig, type ResumeRequest } from './resume-request';

const purple = 'http://purple:9019/';

describe('a resume request, written by the runner and read by the green agent', () => {
  it('reads back what it wrote, with and without a concurrency and a request for the record', () => {
    const resumes: ResumeRequest[] = [
      { purpleUrl: purple, recordId: '2026-11-23_20-00-00_ab12cd34', retryFailed: false, sendRecord: false },
      { purpleUrl: purple, recordId: 'r1', retryFailed: true, sendRecord: true, concurrency: 4 },
    ];
    for (const resume of resumes) {
      const body = formatResumeRequest(resume);
      expect(readResumeConfig({ ...body.config }, body.participants.purple_agent, [])).toEqual({ kind: 'resume', resume });
    }
  });

  it('names every problem of a resume config, and keeps the ones found before it', () => {
    expect(
      readResumeConfig({ resume: '../x', retry_failed: 'yes', concurrency: 0, task_ids: ['sample:1'] }, undefined, ['participants.purple_agent is missing']),
    ).toEqual({
      kind: 'invalid',
      problems: [
        'participants.purple_agent is missing',
        'config.resume ("../x") must be the id of a run record, the name of its folder under assessments/',
        'config.retry_failed must be true or false',
        'config.concurrency must be a whole number from 1 to 128',
        'config.resume takes its tasks and shard from the record; remove config.task_ids',
      ],
    });
  });
});
