import { runService } from '@markwright/config';
import { startGateway } from '../gateway';

runService('gateway', startGateway);
