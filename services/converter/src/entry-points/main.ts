import { runService } from '@markwright/config';
import { startConverter } from '../converter-service';

runService('converter', startConverter);
