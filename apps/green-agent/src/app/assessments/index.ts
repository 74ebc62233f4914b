export { MAX_CONCURRENCY, parseAssessmentRequest, type AssessmentParse, type AssessmentRequest, type TaskIdParser } from './assessment-request';
export { describeAssessment } from './assessment-description';
export { AssessmentService, mapWithConcurrency, RUN_LOG_DIR, type AssessmentReport } from './assessment.service';
export { AssessmentsModule } from './assessments.module';
