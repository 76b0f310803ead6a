/**
 * The spool as a local folder (IMPORT_DIR): the embedded default. The API and the workers must see
 * the same folder (one machine, or a shared volume); with several hosts use the S3 spool.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { ByteCounter, checkedName, SpoolObjectMissingError, type ImportSpool } from './spool.js';

/** 64 KB reads: what one chunk allocates in the importer dies young in V8's new space (see importer.ts). */
const READ_CHUNK_BYTES = 64 * 1024;

export function folderSpool(dir: string): ImportSpool {
  let ready: Promise<unknown> | undefined;
  const path = (name: string) => join(dir, checkedName(name));

  return {
    description: `folder ${dir}`,

    async put(name, body, { maxBytes } = {}) {
      await (ready ??= mkdir(dir, { recursive: true }).catch((error: unknown) => {
        ready = undefined;
        throw error;
      }));
      const file = path(name);
      const counter = new ByteCounter(maxBytes);
      try {
        await pipeline(body, counter, createWriteStream(file, { flags: 'wx' }));
      } catch (error) {
        await unlink(file).catch(() => undefined);
        throw error;
      }
      return { size: counter.bytes };
    },

    async get(name) {
      const stream = createReadStream(path(name), { highWaterMark: READ_CHUNK_BYTES });
      await new Promise<void>((resolve, reject) => {
        stream.once('open', () => resolve());
        stream.once('error', (error: NodeJS.ErrnoException) => reject(error.code === 'ENOENT' ? new SpoolObjectMissingError(name) : error));
      });
      return stream;
    },

    async delete(name) {
      await unlink(path(name)).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw error;
      });
    },

    async removeOlderThan(ageMs) {
      const names = await readdir(dir).catch(() => [] as string[]);
      const cutoff = Date.now() - ageMs;
      let removed = 0;
      for (const name of names) {
        const file = join(dir, name);
        const info = await stat(file).catch(() => undefined);
        if (info?.isFile() && info.mtimeMs < cutoff) {
          await unlink(file).then(
            () => removed++,
            () => undefined,
          );
        }
      }
      return removed;
    },

    close() {},
  };
}
