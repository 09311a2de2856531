import { defineModule } from '../../core/module.js';
import { consoleRoutes } from './console.routes.js';
import { defaultConsoleDir } from './console-files.js';

/** The approver web console (console/ in the repository), served from its build at /console. */
export function createConsoleModule(deps: { dir: string | null }) {
  const dir = deps.dir ?? defaultConsoleDir();
  return defineModule({
    dir,
    rootRoutes: (app) => app.register(consoleRoutes, { dir }),
  });
}
