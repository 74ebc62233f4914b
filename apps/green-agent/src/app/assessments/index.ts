export { MAX_CONCURRENCY, parseAssessmentRequest, type AssessmentParse, type AssessmentRequest, type ResumeRequest } from './assessment-request';
export type { TaskIdParser, TaskSources } from './assessment-tasks';
export { describeAssessment } from './assessment-description';
export type { AssessmentListener, AssessmentReport, RecordWrite } from './assessment-listener';
export { AssessmentService, type ResumePlan } from './assessment.service';
export { AssessmentsModule } from './assessments.module';
export { recordSender } from './record-sender';
