import { appendDefinition } from '../definitions.js';
import { valueCommand } from '../value-command.js';

export default valueCommand('append', appendDefinition);
