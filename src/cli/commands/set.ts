import { setDefinition } from '../definitions.js';
import { valueCommand } from '../value-command.js';

export default valueCommand('set', setDefinition);
