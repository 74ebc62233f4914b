import 'reflect-metadata';
import { bootstrapAgent } from '@arvo-rca/agent-app';
import { ChildSpawner } from '@arvo-rca/sandbox';
import { AppModule } from './app/app.module';
import { fixHeapGrowth } from './heap-growth';

fixHeapGrowth();
// Before the agent grows: the spawner's own start is the one fork of the whole green agent (see ChildSpawner).
ChildSpawner.shared().start();
void bootstrapAgent(() => AppModule.forRoot(), 'green');
