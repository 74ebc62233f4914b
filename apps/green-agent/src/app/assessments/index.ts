export { parseAssessmentRequest, type AssessmentParse, type AssessmentRequest } from './request/assessment-request';
export type { TaskIdParser, TaskSources } from './request/assessment-tasks';
export { describeAssessment } from './request/assessment-description';
export type { AssessmentListener, AssessmentReport, RecordWrite } from './assessment-listener';
export { AssessmentService, type ResumePlan } from './assessment.service';
export { AssessmentsModule } from './assessments.module';
export { recordSender } from './record/record-sender';
