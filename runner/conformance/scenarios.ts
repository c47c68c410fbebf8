/**
 * What the MCP conformance suite's server scenarios need that wirecost's catalog does not serve
 * (read from `@modelcontextprotocol/conformance` 0.1.16: each scenario's description and the
 * tools, prompts and resources it calls). wirecost's targets serve the same three tools (`echo`,
 * `add`, `confirm`), no prompts, no resources, no completions and no logging capability, so a
 * scenario that fails for want of one of these is not applicable to them, not a finding; its
 * failure message is kept all the same (it says how the SDK answers a request for something the
 * server does not have). A scenario listed here that passes is counted as passed.
 */

/** The suite's scenario id → why wirecost's catalog cannot serve it. */
export const NOT_SERVED: Readonly<Record<string, string>> = {
  "logging-set-level": "the catalog declares no logging capability",
  "completion-complete": "the catalog has no prompt test_prompt_with_arguments and no completions",
  "tools-call-simple-text": "the catalog has no tool test_simple_text",
  "tools-call-image": "the catalog has no tool test_image_content",
  "tools-call-audio": "the catalog has no tool test_audio_content",
  "tools-call-mixed-content": "the catalog has no tool test_multiple_content_types",
  "tools-call-embedded-resource": "the catalog has no tool test_embedded_resource",
  "tools-call-with-logging": "the catalog has no tool test_tool_with_logging",
  "tools-call-with-progress": "the catalog has no tool test_tool_with_progress",
  "tools-call-error": "the catalog has no tool test_error_handling",
  "tools-call-sampling": "the catalog has no tool test_sampling",
  "tools-call-elicitation": "the catalog has no tool test_elicitation",
  "elicitation-sep1034-defaults": "the catalog has no tool test_elicitation_sep1034_defaults",
  "elicitation-sep1330-enums": "the catalog has no tool test_elicitation_sep1330_enums",
  "json-schema-2020-12": "the catalog has no tool json_schema_2020_12_tool",
  "server-sse-polling": "the catalog has no tool test_reconnection",
  "resources-list": "the catalog serves no resources",
  "resources-read-text": "the catalog has no resource test://static-text",
  "resources-read-binary": "the catalog has no resource test://static-binary",
  "resources-templates-read": "the catalog has no resource template test://template/{id}/data",
  "resources-subscribe": "the catalog has no resource test://watched-resource",
  "resources-unsubscribe": "the catalog has no resource test://watched-resource",
  "prompts-list": "the catalog serves no prompts",
  "prompts-get-simple": "the catalog has no prompt test_simple_prompt",
  "prompts-get-with-args": "the catalog has no prompt test_prompt_with_arguments",
  "prompts-get-embedded-resource": "the catalog has no prompt test_prompt_with_embedded_resource",
  "prompts-get-with-image": "the catalog has no prompt test_prompt_with_image",
};
