export { answeredDialects } from './open-dialect';
export { GreenTaskEnvironment } from './green-task-environment';
export { PurpleExecutor } from './purple.executor';
export { SolverModule } from './solver.module';
