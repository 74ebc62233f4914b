export { MAX_CONCURRENCY, parseAssessmentRequest, type AssessmentParse, type AssessmentRequest } from './assessment-request';
export { AssessmentService, mapWithConcurrency, RUN_LOG_DIR, type AssessmentReport } from './assessment.service';
export { AssessmentsModule } from './assessments.module';
