// A plain static file server for the tests that honours HTTP Range (one
// range a request, as browsers and the package ask), or, with
// `ignoreRange`, answers every request with the whole file as some servers
// do. Counts the bytes it sent and the ranges asked.
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { createServer } from "node:http";
import { extname, join, normalize } from "node:path";

const TYPES = { ".html": "text/html", ".js": "text/javascript", ".css": "text/css", ".wasm": "application/wasm" };

/**
 * Serves `roots` ({ "/url/prefix/": directory }) on a free loopback port:
 * resolves to { base, sent, ranges, close } (`sent()`: bytes sent so far;
 * `ranges`: every "path start-end" asked).
 */
export async function serveFiles(roots, { ignoreRange = false } = {}) {
  let sent = 0;
  const ranges = [];
  const server = createServer(async (req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url, "http://x").pathname)).replace(/^(\.\.[/\\])+/, "");
    const root = Object.keys(roots).find((prefix) => path.startsWith(prefix));
    const file = root === undefined ? null : join(roots[root], path.slice(root.length) || "index.html");
    const size = await stat(file ?? "").then((s) => (s.isFile() ? s.size : null), () => null);
    if (size === null) return res.writeHead(404).end("not found");
    const headers = { "content-type": TYPES[extname(file)] ?? "application/octet-stream", "accept-ranges": ignoreRange ? "none" : "bytes" };
    let [start, end, status] = [0, size - 1, 200];
    const asked = ignoreRange ? null : /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? "");
    if (asked) {
      start = Number(asked[1]);
      end = Math.min(asked[2] === "" ? size - 1 : Number(asked[2]), size - 1);
      if (start > end) return res.writeHead(416, { "content-range": `bytes */${size}` }).end();
      status = 206;
      headers["content-range"] = `bytes ${start}-${end}/${size}`;
      ranges.push(`${path} ${start}-${end}`);
    }
    headers["content-length"] = String(end - start + 1);
    res.writeHead(status, headers);
    const stream = createReadStream(file, { start, end });
    stream.on("data", (chunk) => { sent += chunk.length; });
    stream.pipe(res);
    // A client that stops reading (the package refusing a whole file) ends the stream.
    res.on("close", () => stream.destroy());
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    base: `http://127.0.0.1:${server.address().port}`,
    sent: () => sent,
    ranges,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(resolve); }),
  };
}
