import { valueCommand } from '../value-command.js';

export default valueCommand('append');
