import { Module } from '@nestjs/common';
import { TaskLists } from '@arvo-rca/task-lists';
import { GreenConfig } from '../green-config';
import { TaskAssetsModule } from '../task-assets';
import { TasksModule } from '../tasks';
import { AssessmentService } from './assessment.service';
import { TaskFetcher } from './fetch-ahead/task-fetcher';

// A request's task_ids_file is read from the named lists' folder and the operator's one folder of list files
// only: the green agent reads for anyone who reaches it, maybe as root.
function taskListsOf(config: GreenConfig): TaskLists {
  const own = config.TASK_LIST_FILES_DIR === undefined ? [] : [config.TASK_LIST_FILES_DIR];
  return new TaskLists(config.TASK_LISTS_DIR, { fileFolders: [config.TASK_LISTS_DIR, ...own] });
}

/** Assessments of many tasks, on top of the single-task machinery. */
@Module({
  imports: [TasksModule, TaskAssetsModule],
  providers: [AssessmentService, TaskFetcher, { provide: TaskLists, inject: [GreenConfig], useFactory: taskListsOf }],
  // The task sources and lists too: requests are checked against them where they arrive.
  exports: [AssessmentService, TaskLists, TasksModule, TaskAssetsModule],
})
export class AssessmentsModule {}
