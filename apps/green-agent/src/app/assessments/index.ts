export {
  MAX_CONCURRENCY,
  parseAssessmentRequest,
  type AssessmentParse,
  type AssessmentRequest,
  type ResumeRequest,
  type TaskIdParser,
} from './assessment-request';
export { describeAssessment } from './assessment-description';
export { AssessmentService, type AssessmentListener, type AssessmentReport, type RecordWrite, type ResumePlan } from './assessment.service';
export { AssessmentsModule } from './assessments.module';
export { recordSender } from './record-sender';
