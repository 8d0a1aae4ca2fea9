import { runConformance } from './suite.js';
import { STORES } from './stores.js';

for (const [name, make] of Object.entries(STORES)) runConformance(name, make);
