// The order of the server test files on a run with no timings kept (a fresh clone, as CI): files that start processes
// (a server, a PostgreSQL, a script) first, then the rest as vitest orders them. Those files wait on child processes
// and take from 10 s to minutes on a loaded machine; started last, one of them runs alone while the other workers idle.
import { readFile } from 'node:fs/promises';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const startsProcesses = /startServerProcess|startStack|spawn\(|spawnSync|execFile|runScript|startThrowaway/;

export class ProcessesFirstSequencer extends BaseSequencer {
  async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const heavy = new Set<TestSpecification>();
    await Promise.all(sorted.map(async (spec) => startsProcesses.test(await readFile(spec.moduleId, 'utf8')) && heavy.add(spec)));
    // Within each project, in vitest's order of the projects.
    const projects = [...new Set(sorted.map((spec) => spec.project.name))];
    return projects.flatMap((name) => {
      const own = sorted.filter((spec) => spec.project.name === name);
      return [...own.filter((spec) => heavy.has(spec)), ...own.filter((spec) => !heavy.has(spec))];
    });
  }
}
