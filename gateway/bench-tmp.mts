import { uploadMessages } from "/work/wt-upload/gateway/src/lib/results-upload.ts";
const bytes = Buffer.alloc(10 * 1024 * 1024, 3);
const content = bytes.toString("base64").replace(/.{76}/g, "$&\r\n");
const text = JSON.stringify({ summary: "x", raw_data_uploads: [{ name: "a", format: "bin", content_base64: content }] });
const buf = Buffer.from(text);
const body = new ReadableStream<Uint8Array>({
  start(c) { for (let i = 0; i < buf.length; i += 65536) c.enqueue(buf.subarray(i, i + 65536)); c.close(); },
});
const t0 = performance.now();
let n = 0;
for await (const m of uploadMessages("exp_x", body)) n++;
console.log("messages", n, "MB", (buf.length / 1e6).toFixed(1), "ms", (performance.now() - t0).toFixed(0));
