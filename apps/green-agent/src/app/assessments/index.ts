export { MAX_CONCURRENCY, parseAssessmentRequest, type AssessmentParse, type AssessmentRequest, type ResumeRequest } from './assessment-request';
export type { TaskIdParser, TaskSources } from './assessment-tasks';
export { describeAssessment } from './assessment-description';
export { AssessmentService, type AssessmentListener, type AssessmentReport, type ResumePlan } from './assessment.service';
export { AssessmentsModule } from './assessments.module';
