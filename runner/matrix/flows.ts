/**
 * Flows as data (README "Flows"): a flow is a list of steps of a few kinds, declared in a matrix's
 * `flows:` and run by the MCP client drivers (the raw driver, runner/drivers/mcp/steps.ts; the SDK
 * clients, runner/drivers/sdk/flows.ts). Adding a flow made of these kinds is YAML only.
 *
 * Step kinds (YAML: a string, or a map whose first key is the kind):
 * - `open`: open the session the revision's way (2025 era: `initialize` and
 *   `notifications/initialized`; 2026-07-28: nothing on the wire). Every flow starts with it.
 * - `list-tools`, `list-resources`, `list-prompts`: `tools/list`, `resources/list`, `prompts/list`,
 *   every page of it (the raw driver follows each `nextCursor`; MCP, "Utilities" → "Pagination").
 * - `call-tool`: one `tools/call` of the target's tool (`tool:`), else of wirecost's `echo` with
 *   `{"text": …}` whose answer must echo the text. `{ call-tool: NAME, arguments: {…}, input:
 *   accept, text: "…", requestStateBytesAxis: AXIS }` calls NAME with those arguments (default
 *   `{}`); `input: accept` says the tool asks one input request that the client accepts (2025 era:
 *   `elicitation/create`; 2026-07-28: an `input_required` result, the call retried with
 *   `inputResponses` and the `requestState` echoed); `text` is what the answer's first text must
 *   be; `requestStateBytesAxis` names an axis whose value is the byte length the 2026-07-28
 *   `requestState` must have (absent axis or empty value: 0, no `requestState`).
 * - `read-resource`: `{ read-resource: URI }`, one `resources/read`.
 * - `repeat`: `{ repeat: N, step: STEP }`, STEP N times.
 * - `end`: end the session the way the revision and transport say (MCP 2025-11-25, "Lifecycle",
 *   Shutdown; "Transports", Session Management): over Streamable HTTP in the 2025 era, an HTTP
 *   `DELETE` of the endpoint with the `Mcp-Session-Id` the server assigned (none assigned: nothing
 *   to end, nothing sent); 2026-07-28 over HTTP has no session: nothing on the wire; over stdio the
 *   client closes the server's stdin. A flow's last step when it has one.
 */

/** One step of a flow (see the module comment for each kind). */
export type FlowStep =
  | { kind: "open" }
  | { kind: "list-tools" }
  | { kind: "list-resources" }
  | { kind: "list-prompts" }
  | {
      kind: "call-tool";
      /** The tool's name; undefined = the target's `tool:`, else `echo`. */
      name?: string;
      /** Arguments of a named tool (a JSON object; default `{}`). */
      arguments?: Record<string, unknown>;
      /** `accept`: the call asks one input request, which the client accepts. */
      input?: "accept";
      /** The text the answer's first content item must carry. */
      text?: string;
      /** Axis whose value is the byte length the 2026-07-28 `requestState` must have. */
      requestStateBytesAxis?: string;
    }
  | { kind: "read-resource"; uri: string }
  | { kind: "repeat"; times: number; step: FlowStep }
  | { kind: "end" };

/** A flow as declared: its steps and the sentence that defines it on the pages. */
export interface FlowDefinition {
  /** One sentence saying what the flow does (`description:`), shown with the flow's name. */
  description?: string;
  steps: FlowStep[];
}

/**
 * The flows a matrix gets when it declares no `flows:`: the four wirecost has measured since its
 * start, step for step as `matrix.yaml` declares them (a test holds the two equal).
 */
export const STANDARD_FLOWS: Record<string, FlowDefinition> = {
  plain: {
    description: "tools/list, then one tools/call of the target's tool (wirecost's echo unless the target names one)",
    steps: [{ kind: "open" }, { kind: "list-tools" }, { kind: "call-tool" }],
  },
  ten: {
    description: "tools/list, then ten tools/call of the target's tool",
    steps: [{ kind: "open" }, { kind: "list-tools" }, { kind: "repeat", times: 10, step: { kind: "call-tool" } }],
  },
  input: {
    description: "one tools/call of confirm, whose handler asks the user one question; the client accepts",
    steps: [{ kind: "open" }, { kind: "call-tool", name: "confirm", arguments: {}, input: "accept", text: "confirmed: yes" }],
  },
  state: {
    description: "like input; on 2026-07-28 the requestState is exactly the state axis' bytes",
    steps: [{ kind: "open" }, { kind: "call-tool", name: "confirm", arguments: {}, input: "accept", text: "confirmed: yes", requestStateBytesAxis: "state" }],
  },
};

/** The flows of a matrix (its `flows:`, else {@link STANDARD_FLOWS}). */
export function flowsOf(m: { flows?: Record<string, FlowDefinition> }): Record<string, FlowDefinition> {
  return m.flows ?? STANDARD_FLOWS;
}

const SIMPLE = ["open", "list-tools", "list-resources", "list-prompts", "call-tool", "end"] as const;

/** A step as YAML gives it (validated in shape by matrix.schema.json first). */
export type RawStep = string | Record<string, unknown>;

/**
 * Read one step from its YAML form.
 * @param fail called with a message and the key at fault (relative to the step) for a step that is not one of the kinds; must throw
 */
export function parseStep(raw: RawStep, fail: (message: string, key?: string) => never): FlowStep {
  if (typeof raw === "string") {
    if ((SIMPLE as readonly string[]).includes(raw)) return { kind: raw } as FlowStep;
    return fail(
      `unknown step "${raw}" — use one of: ${SIMPLE.join(", ")}, or a map: { call-tool: NAME, … }, { read-resource: URI }, { repeat: N, step: STEP }`,
    );
  }
  if ("repeat" in raw) {
    const times = raw.repeat;
    if (typeof times !== "number" || !Number.isInteger(times) || times < 1)
      return fail(`repeat: ${JSON.stringify(times)} is not a whole number of 1 or more`, "repeat");
    if (raw.step === undefined) return fail("a repeat step needs step: STEP — the step to repeat");
    return { kind: "repeat", times, step: parseStep(raw.step as RawStep, fail) };
  }
  if ("read-resource" in raw) {
    if (typeof raw["read-resource"] !== "string") return fail("read-resource takes the resource's URI", "read-resource");
    return { kind: "read-resource", uri: raw["read-resource"] };
  }
  if ("call-tool" in raw) {
    const name = raw["call-tool"];
    if (typeof name !== "string" || name === "") return fail("call-tool takes the tool's name (or write call-tool alone for the target's tool)", "call-tool");
    const step: FlowStep = { kind: "call-tool", name, arguments: structuredClone((raw.arguments as Record<string, unknown> | undefined) ?? {}) };
    if (raw.input !== undefined) step.input = "accept";
    if (typeof raw.text === "string") step.text = raw.text;
    if (typeof raw.requestStateBytesAxis === "string") step.requestStateBytesAxis = raw.requestStateBytesAxis;
    return step;
  }
  return fail(`a step map starts with call-tool, read-resource or repeat (got ${Object.keys(raw).join(", ") || "nothing"})`);
}

/** One step in words, as the pages name it: `open`, `call-tool get_time {"timezone":"UTC"}`, `repeat 10 × call-tool`. */
export function stepText(step: FlowStep): string {
  switch (step.kind) {
    case "repeat":
      return `repeat ${step.times} × ${stepText(step.step)}`;
    case "read-resource":
      return `read-resource ${step.uri}`;
    case "call-tool":
      if (step.name === undefined) return "call-tool";
      return [`call-tool ${step.name} ${JSON.stringify(step.arguments ?? {})}`, ...(step.input ? ["(input: accept)"] : [])].join(" ");
    default:
      return step.kind;
  }
}

/** A flow's steps in words, joined by `, ` ({@link stepText}). */
export function stepsText(steps: readonly FlowStep[]): string {
  return steps.map(stepText).join(", ");
}
