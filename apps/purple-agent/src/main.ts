import 'reflect-metadata';
import { bootstrapAgent } from '@arvo-rca/a2a-protocol';
import { AppModule } from './app/app.module';

void bootstrapAgent(() => AppModule.forRoot(), 'purple');
