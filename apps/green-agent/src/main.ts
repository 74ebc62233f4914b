import 'reflect-metadata';
import { bootstrapAgent } from '@arvo-rca/agent-app';
import { AppModule } from './app/app.module';

void bootstrapAgent(() => AppModule.forRoot(), 'green');
