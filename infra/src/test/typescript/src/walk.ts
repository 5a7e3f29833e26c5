// The README's flow through a TypeScript client generated from docs/openapi.json (openapi-typescript types, openapi-fetch
// calls), compiled with tsc --strict: an instance, an agent through a typed JSON-RPC call, a task with a webhook created,
// polled, streamed and its deliveries read, input and continue, a cancel, a file uploaded through its presigned URL and
// attached, a conversation, a terminal ticket attached with the ticket as its only subprotocol. Every answer is also
// checked against the document with Ajv (JSON Schema 2020-12): status, content type and body, nulls included.
//
// Run by TypeScriptClientTest: node build/walk.js <base URL> <API key> <path of openapi.json>. Prints "walk: ok" at the end.
import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import createClient, { type Middleware } from "openapi-fetch";
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import WebSocket from "ws";
import type { paths } from "./openapi";

const [baseUrl, apiKey, documentPath] = process.argv.slice(2);
if (!baseUrl || !apiKey || !documentPath) {
  throw new Error("usage: node build/walk.js <base URL> <API key> <openapi.json>");
}

// --- the document's check of every answer -------------------------------------------------------------------------

interface Document {
  paths: Record<string, Record<string, { responses?: Record<string, { content?: Record<string, { schema?: unknown }> }> }>>;
}
const document = JSON.parse(readFileSync(documentPath, "utf8")) as Document;
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
for (const format of ["int32", "int64", "binary", "byte"]) {
  ajv.addFormat(format, true);
}
ajv.addSchema({ ...document, $id: "openapi.json" });
let checked = 0;

function pointer(...segments: string[]): string {
  return segments.map((segment) => encodeURIComponent(segment.replace(/~/g, "~0").replace(/\//g, "~1"))).join("/");
}

/** Fails the walk when an answer is not one the document describes for the route. */
async function check(method: string, template: string, response: Response): Promise<void> {
  const operation = document.paths[template]?.[method.toLowerCase()];
  if (!operation) {
    throw new Error(`${method} ${template}: not in the document`);
  }
  const status = String(response.status);
  const described = operation.responses?.[status] !== undefined ? status : "default";
  const answer = operation.responses?.[described];
  if (!answer) {
    throw new Error(`${method} ${template}: ${status} is not a documented answer`);
  }
  const body = await response.clone().text();
  if (!answer.content) {
    if (body.length > 0) {
      throw new Error(`${method} ${template}: ${status} has a body the document does not describe`);
    }
    return;
  }
  const mediaType = (response.headers.get("content-type") ?? "").split(";")[0]!.trim();
  const media = Object.keys(answer.content).find((declared) => declared === mediaType || declared === "*/*");
  if (media === undefined) {
    throw new Error(`${method} ${template}: ${status} as ${mediaType}, the document says ${Object.keys(answer.content).join(", ")}`);
  }
  if (mediaType !== "application/json" || answer.content[media]?.schema === undefined) {
    return;
  }
  const ref = "openapi.json#/" + pointer("paths", template, method.toLowerCase(), "responses", described, "content", media, "schema");
  const validate = ajv.getSchema(ref) ?? ajv.compile({ $ref: ref });
  if (!validate(JSON.parse(body))) {
    throw new Error(`${method} ${template}: ${status} does not match the document: ${ajv.errorsText(validate.errors)}\n${body}`);
  }
  checked++;
}

const checkEveryAnswer: Middleware = {
  async onResponse({ request, response, schemaPath }) {
    await check(request.method, schemaPath, response);
    return undefined;
  },
};

const api = createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${apiKey}` } });
api.use(checkEveryAnswer);

// --- helpers --------------------------------------------------------------------------------------------------------

/** The data of a call that must succeed. */
function ok<T>(answer: { data?: T; error?: unknown; response: Response }, what: string): T {
  if (answer.data === undefined) {
    throw new Error(`${what}: ${answer.response.status} ${JSON.stringify(answer.error)}`);
  }
  return answer.data;
}

/** Reads until the condition holds (the service answers at once; the flow's steps finish in their own time). */
async function until<T>(read: () => Promise<T>, holds: (value: T) => boolean, what: string): Promise<T> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const value = await read();
    if (holds(value)) {
      return value;
    }
    if (Date.now() > deadline) {
      throw new Error(`waited a minute for ${what}; last read: ${JSON.stringify(value)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function expect(condition: boolean, what: string): void {
  if (!condition) {
    throw new Error(`expected ${what}`);
  }
}

/** A webhook receiver on 127.0.0.1 that answers 200 and counts the callbacks per path. */
async function receiver(): Promise<{ url: (path: string) => string; received: (path: string) => number; close: () => void }> {
  const counts = new Map<string, number>();
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    request.resume();
    request.on("end", () => {
      counts.set(request.url ?? "", (counts.get(request.url ?? "") ?? 0) + 1);
      response.writeHead(200).end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    received: (path) => counts.get(path) ?? 0,
    close: () => server.close(),
  };
}

// --- the README's flow ----------------------------------------------------------------------------------------------

async function walk(): Promise<void> {
  // an instance, running
  const deployed = ok(await api.POST("/api/v1/instances", {
    params: { header: { "Idempotency-Key": `ts-walk-${Date.now()}-${Math.random()}` } },
    body: { provider: "local", region: "local", kind: "linux" },
  }), "deploy").data;
  const instanceId = deployed.id;
  await until(async () => ok(await api.GET("/api/v1/instances/{instanceId}", { params: { path: { instanceId } } }), "instance").data.status,
    (status) => status === "running", "the instance running");

  // an agent, created by a typed JSON-RPC call, its operation followed to its end
  const queued = ok(await api.POST("/api/v1/instances/{instanceId}/methods", {
    params: { path: { instanceId } },
    body: { jsonrpc: "2.0", id: 1, method: "agent/create", params: { name: "ts-walker" } },
  }), "agent/create");
  const operationId = queued.result.id;
  const created = await until(async () => ok(await api.GET("/api/v1/instances/{instanceId}/operations/{operationId}",
    { params: { path: { instanceId, operationId } } }), "operation"), (snapshot) => snapshot.terminal, "agent/create finished");
  expect(created.status === "succeeded", `agent/create succeeded, not ${created.status}`);
  const agentId = String(created.projection?.["platformAgentId"]);
  expect(ok(await api.GET("/api/v1/agents/{agentId}", { params: { path: { agentId } } }), "agent").data.id === agentId, "the agent readable");

  // a task with a webhook: polled to its end, streamed whole, its log, the inbox, its webhook's deliveries
  const hooks = await receiver();
  try {
    const taskId = ok(await api.POST("/api/v1/agents/{agentId}/tasks", {
      params: { path: { agentId } },
      body: { message: "summarize\n/echo deltas=3", webhooks: [{ url: hooks.url("/walk"), secret: "whsec-0123456789abcdef" }] },
    }), "task create").data.task_id;
    const path = { agentId, taskId };
    const done = await until(async () => ok(await api.GET("/api/v1/agents/{agentId}/tasks/{taskId}", { params: { path } }), "task").data,
      (task) => task.final, "the task finished");
    expect(done.status === "completed" && done.text === "echo: summarize", `the task completed with its echo: ${JSON.stringify(done)}`);

    const events = await fetch(`${baseUrl}/api/v1/agents/${agentId}/tasks/${taskId}/events`, { headers: { Authorization: `Bearer ${apiKey}` } });
    await check("GET", "/api/v1/agents/{agentId}/tasks/{taskId}/events", events);
    const stream = await events.text();
    expect(stream.includes("event:agent_reply_delta") && stream.includes("event:done"), `the stream with its deltas and done:\n${stream}`);

    const log = ok(await api.GET("/api/v1/agents/{agentId}/tasks/{taskId}/messages", { params: { path, query: { include_deltas: true } } }), "log");
    expect(log.data.messages.length > 0, "the task's log");
    const inbox = ok(await api.GET("/api/v1/tasks", { params: { query: { limit: 20, agentId } } }), "inbox");
    expect(inbox.data.tasks.some((task) => task.task_id === taskId), "the task in the inbox");

    const webhooks = ok(await api.GET("/api/v1/agents/{agentId}/tasks/{taskId}/webhooks", { params: { path } }), "webhooks").data.webhooks;
    const webhookId = webhooks[0]?.webhook_id;
    if (webhookId === undefined) {
      throw new Error("expected the task's webhook in its list");
    }
    await until(async () => hooks.received("/walk"), (count) => count >= 3, "three callbacks");
    const deliveries = await until(async () => ok(await api.GET("/api/v1/agents/{agentId}/tasks/{taskId}/webhooks/{webhookId}/deliveries",
      { params: { path: { ...path, webhookId }, query: { limit: 20 } } }), "deliveries").data["deliveries"] ?? [],
      (rows) => rows.length === 3 && rows.every((row) => row.status === "succeeded"), "three deliveries succeeded");
    expect(deliveries.every((row) => row.attempt_num === 1), "each delivered at its first attempt");
  } finally {
    hooks.close();
  }

  // input asked, then given; a hanging task canceled
  const asking = ok(await api.POST("/api/v1/agents/{agentId}/tasks", {
    params: { path: { agentId } }, body: { message: "which colour?\n/echo then=input" },
  }), "asking task").data.task_id;
  await until(async () => ok(await api.GET("/api/v1/agents/{agentId}/tasks/{taskId}", { params: { path: { agentId, taskId: asking } } }),
    "asking").data.status, (status) => status === "input_required", "input asked");
  ok(await api.POST("/api/v1/agents/{agentId}/tasks/{taskId}/continue", {
    params: { path: { agentId, taskId: asking } }, body: { message: "blue" },
  }), "continue");
  const hanging = ok(await api.POST("/api/v1/agents/{agentId}/tasks", {
    params: { path: { agentId } }, body: { message: "wait\n/echo then=hang" },
  }), "hanging task").data.task_id;
  const canceled = ok(await api.POST("/api/v1/agents/{agentId}/tasks/{taskId}/cancel", {
    params: { path: { agentId, taskId: hanging } }, body: { reason: "enough" },
  }), "cancel").data;
  expect(canceled.status === "canceled", `the task canceled, not ${canceled.status}`);

  // a file uploaded through its presigned URL, attached to an invoke, then offered for download
  const upload = ok(await api.POST("/api/v1/files/presign-upload", {
    body: { contentType: "text/plain", contentLengthBytes: 6, filename: "a.txt" },
  }), "presign upload").data;
  const put = await fetch(upload.upload_url, { method: upload.method, headers: { "Content-Type": "text/plain" }, body: "hello!" });
  await check("PUT", "/storage/v1/objects/{fileId}", put);
  expect(put.status === 200, `the PUT stored the file, not ${put.status}`);
  const invoked = ok(await api.POST("/api/v1/agents/{agentId}/invoke", {
    params: { path: { agentId } }, body: { message: "read this", timeout_ms: 20_000, attachments: [{ file_id: upload.file_id }] },
  }), "invoke").data;
  expect(invoked.status === "completed", `the invoke completed, not ${invoked.status}`);
  const download = ok(await api.GET("/api/v1/files/presign-download", { params: { query: { file_id: upload.file_id } } }), "presign download");
  expect(download.data.size_bytes === 6, "the file's size");

  // a conversation: open, two messages, its log from the first one's cursor, close
  const conversationId = ok(await api.POST("/api/v1/agents/{agentId}/conversations", {
    params: { path: { agentId } }, body: { title: "planning" },
  }), "open").data.conversation_id;
  const conversation = { agentId, convId: conversationId };
  const cursor = ok(await api.POST("/api/v1/agents/{agentId}/conversations/{convId}/messages", {
    params: { path: conversation }, body: { message: "first" },
  }), "first message").data.cursor;
  ok(await api.POST("/api/v1/agents/{agentId}/conversations/{convId}/messages", {
    params: { path: conversation }, body: { message: "and then?\n/echo history" },
  }), "second message");
  await until(async () => ok(await api.GET("/api/v1/agents/{agentId}/conversations/{convId}", { params: { path: conversation } }),
    "conversation").data, (view) => view.turn === 2 && view.turn_status === "completed", "two turns answered");
  const messages = ok(await api.GET("/api/v1/agents/{agentId}/conversations/{convId}/messages", {
    params: { path: conversation, query: { since: cursor } },
  }), "conversation log").data.messages;
  expect(messages.length > 0, "the conversation's log");
  const closed = ok(await api.POST("/api/v1/agents/{agentId}/conversations/{convId}/close", { params: { path: conversation } }), "close");
  expect(closed.data.status === "closed", "the conversation closed");

  // a terminal ticket, attached with the ticket as the only subprotocol, as a browser would
  const ticket = ok(await api.POST("/api/v1/instances/{instanceId}/terminal-sessions", {
    params: { path: { instanceId } }, body: {},
  }), "terminal").data;
  const subprotocol = `ticket.${ticket.ticket}`;
  const socket = new WebSocket(ticket.websocket_url, [subprotocol]);
  await new Promise<void>((resolve, reject) => {
    socket.once("open", () => resolve());
    socket.once("error", reject);
    socket.once("unexpected-response", (_request, response) => reject(new Error(`the terminal's handshake answered ${response.statusCode}`)));
  });
  expect(socket.protocol === subprotocol, `the 101 names the ticket's subprotocol, not "${socket.protocol}"`);
  socket.terminate();
}

walk().then(
  () => console.log(`walk: ok (${checked} answers matched the document)`),
  (failure: unknown) => {
    console.error(failure instanceof Error ? failure.stack : failure);
    process.exit(1);
  },
);
