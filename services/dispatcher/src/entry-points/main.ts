import { runService } from '@markwright/config';
import { startDispatcher } from '../dispatcher-service';

runService('dispatcher', startDispatcher);
