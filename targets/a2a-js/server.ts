/**
 * A2A echo agent on the official JS SDK (`@a2a-js/sdk`, A2A 1.0, JSON-RPC binding over Express).
 * Every `SendMessage` gets a completed task whose one artifact is a text part `Echo: <text>`, where
 * `<text>` is the concatenated text parts of the user message. `configuration.historyLength: 0` is
 * honoured by the SDK (no `history` in the response). Requests need header `A2A-Version: 1.0`.
 *
 * Usage: `node dist/targets/a2a-js/server.js --port N` — listens on 127.0.0.1:N, JSON-RPC at path
 * `/`, the agent card (the SDK's `agentCardHandler`) at `GET /.well-known/agent-card.json`, mounted
 * after the JSON-RPC handler so the timed `POST /` requests pass no extra route.
 * The task store is the SDK's in-memory one (never evicts): start a fresh process per trial.
 */
import express from "express";
import { AgentEvent, DefaultRequestHandler, InMemoryTaskStore, type AgentExecutor, type ExecutionEventBus, type RequestContext } from "@a2a-js/sdk/server";
import { agentCardHandler, jsonRpcHandler, UserBuilder } from "@a2a-js/sdk/server/express";
import { AGENT_CARD_PATH, TaskState, type AgentCard } from "@a2a-js/sdk";
import { installProfileWindow } from "../common/profile-window.js";

/** Parse `--port N` from argv. @throws Error when missing or not a port number */
export function parsePort(argv: readonly string[]): number {
  const i = argv.indexOf("--port");
  const port = Number(i >= 0 ? argv[i + 1] : NaN);
  if (!Number.isInteger(port) || port <= 0 || port > 65535) throw new Error("usage: server.js --port N (1–65535)");
  return port;
}

/** The echo executor: one completed task with artifact `Echo: <text>`. */
export class EchoExecutor implements AgentExecutor {
  private artifactSeq = 0;
  async execute(ctx: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const text = ctx.userMessage.parts.map((p) => (p.content?.$case === "text" ? p.content.value : "")).join("");
    bus.publish(
      AgentEvent.task({
        id: ctx.taskId,
        contextId: ctx.contextId,
        status: { state: TaskState.TASK_STATE_COMPLETED, message: undefined, timestamp: new Date().toISOString() },
        artifacts: [
          {
            artifactId: `echo-${++this.artifactSeq}`,
            name: "echo",
            description: "",
            parts: [{ content: { $case: "text", value: `Echo: ${text}` }, metadata: undefined, filename: "", mediaType: "text/plain" }],
            metadata: undefined,
            extensions: [],
          },
        ],
        history: [ctx.userMessage],
        metadata: undefined,
      }),
    );
    bus.finished();
  }
  async cancelTask(): Promise<void> {}
}

/**
 * The agent card served at `/.well-known/agent-card.json` (not used by the timing flows; the wire
 * flow `a2a-card` fetches it). One `echo` skill, as the other targets' cards: the A2A TCK's
 * mandatory card test requires a non-empty `skills` list, each skill with id, name, description
 * and tags.
 */
export function agentCard(port: number): AgentCard {
  return {
    name: "wirecost echo",
    description: "Echoes the text of each message as a completed task artifact.",
    supportedInterfaces: [{ url: `http://127.0.0.1:${port}/`, protocolBinding: "JSONRPC", tenant: "", protocolVersion: "1.0" }],
    provider: undefined,
    version: "1.0.0",
    capabilities: { streaming: false, pushNotifications: false, extensions: [] },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ["text/plain"],
    defaultOutputModes: ["text/plain"],
    skills: [
      {
        id: "echo",
        name: "echo",
        description: "Replies Echo: <text>.",
        tags: ["echo"],
        examples: [],
        inputModes: [],
        outputModes: [],
        securityRequirements: [],
      },
    ],
    signatures: [],
  } as AgentCard;
}

installProfileWindow(); // only with WIRECOST_PROFILE_OUT set (the profiled window of a cpu run)
const port = parsePort(process.argv);
const handler = new DefaultRequestHandler(agentCard(port), new InMemoryTaskStore(), new EchoExecutor());
const app = express();
app.use("/", jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }));
app.use(`/${AGENT_CARD_PATH}`, agentCardHandler({ agentCardProvider: handler }));
const server = app.listen(port, "127.0.0.1");
server.keepAliveTimeout = 60_000;
for (const sig of ["SIGTERM", "SIGINT"] as const) process.on(sig, () => server.close(() => process.exit(0)));
