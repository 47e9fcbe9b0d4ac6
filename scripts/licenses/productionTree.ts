/**
 * The production dependency tree of a project with each package's declared licence, as
 * license-checker-rseidelsohn reads it (through npm's own Arborist, so it is the tree npm installed).
 * The project itself (private) is left out.
 */
import { init, type ModuleInfos } from 'license-checker-rseidelsohn';

export interface PackageLicense {
  /** name@version */
  id: string;
  licenses: string | string[] | undefined;
  repository: string | undefined;
  publisher: string | undefined;
  licenseFile: string | undefined;
  noticeFile: string | undefined;
}

export function productionTree(start: string): Promise<PackageLicense[]> {
  return new Promise((resolve, reject) => {
    init({ start, production: true, excludePrivatePackages: true }, (err: Error | undefined, packages: ModuleInfos) => {
      if (err) {
        reject(err);
        return;
      }
      const out = Object.entries(packages).map(([id, info]) => {
        const extra = info as { noticeFile?: string };
        return {
          id,
          licenses: info.licenses,
          repository: info.repository,
          publisher: info.publisher,
          licenseFile: info.licenseFile,
          noticeFile: extra.noticeFile,
        };
      });
      resolve(out.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)));
    });
  });
}
