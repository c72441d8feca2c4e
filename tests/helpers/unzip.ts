import yauzl from "yauzl";

/** Reads a zip from memory: entry name → bytes (directories map to null). */
export function unzip(buffer: Buffer): Promise<Map<string, { data: Buffer | null; compressed: boolean }>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(buffer, { lazyEntries: true }, (error, zip) => {
      if (error || !zip) return reject(error);
      const entries = new Map<string, { data: Buffer | null; compressed: boolean }>();
      zip.on("entry", (entry: yauzl.Entry) => {
        if (entry.fileName.endsWith("/")) {
          entries.set(entry.fileName, { data: null, compressed: false });
          return zip.readEntry();
        }
        zip.openReadStream(entry, (err, stream) => {
          if (err || !stream) return reject(err);
          const chunks: Buffer[] = [];
          stream.on("data", (c: Buffer) => chunks.push(c));
          stream.on("end", () => {
            entries.set(entry.fileName, { data: Buffer.concat(chunks), compressed: entry.compressionMethod !== 0 });
            zip.readEntry();
          });
        });
      });
      zip.on("end", () => resolve(entries));
      zip.readEntry();
    });
  });
}
