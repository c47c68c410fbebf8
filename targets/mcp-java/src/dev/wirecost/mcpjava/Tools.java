package dev.wirecost.mcpjava;

import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpAsyncServerExchange;
import io.modelcontextprotocol.server.McpServerFeatures.AsyncToolSpecification;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.ElicitFormRequest;
import io.modelcontextprotocol.spec.McpSchema.ElicitResult;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import reactor.core.publisher.Mono;

/** The tools of every wirecost MCP target (targets/mcp-ts-v2's catalog and texts) on the Java SDK. */
final class Tools {
  static final String SERVER_NAME = "wirecost-mcp-java";
  /** Fixed on purpose, so it never changes the byte counts. */
  static final String SERVER_VERSION = "1.0.0";

  private Tools() {}

  /** A JSON object with its members in the order given (keys and values alternating). */
  static Map<String, Object> obj(Object... kv) {
    Map<String, Object> m = new LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) m.put((String) kv[i], kv[i + 1]);
    return m;
  }

  private static final Map<String, Object> TEXT_SCHEMA =
      obj("type", "object", "properties", obj("text", obj("type", "string")), "required", List.of("text"));
  private static final Map<String, Object> CONFIRM_SCHEMA =
      obj("type", "object", "properties", obj("confirm", obj("type", "boolean")), "required", List.of("confirm"));

  /**
   * Adds serverInfo, the tools capability ({@code listChanged}, as the TypeScript targets declare)
   * and the first {@code knobs.catalog()} tools to an SDK server specification; every other option
   * is the SDK's default.
   */
  static <S extends McpServer.AsyncSpecification<S>> McpServer.AsyncSpecification<S> register(
      McpServer.AsyncSpecification<S> spec, Knobs knobs) {
    List<AsyncToolSpecification> tools = new ArrayList<>();
    tools.add(tool("echo", "Echo the text back.", TEXT_SCHEMA, Tools::echo));
    tools.add(tool("add", "Add two numbers.", obj("type", "object", "properties",
        obj("a", obj("type", "number"), "b", obj("type", "number")), "required", List.of("a", "b")), Tools::add));
    tools.add(tool("confirm", "Ask the user a yes/no question.", obj("type", "object", "properties", obj()), Tools::confirm));
    for (int k = tools.size() + 1; k <= knobs.catalog(); k++)
      tools.add(tool("tool_" + k, "Catalog filler tool.", TEXT_SCHEMA, Tools::echo));
    return spec.serverInfo(SERVER_NAME, SERVER_VERSION)
        .capabilities(McpSchema.ServerCapabilities.builder().tools(true).build())
        .tools(tools.subList(0, Math.min(knobs.catalog(), tools.size())));
  }

  private static AsyncToolSpecification tool(String name, String description, Map<String, Object> schema,
      BiFunction<McpAsyncServerExchange, CallToolRequest, Mono<CallToolResult>> handler) {
    McpSchema.Tool tool = McpSchema.Tool.builder(name, schema).description(description).build();
    return AsyncToolSpecification.builder().tool(tool).callHandler(handler).build();
  }

  private static CallToolResult text(String s) {
    return CallToolResult.builder().addTextContent(s).build();
  }

  static Mono<CallToolResult> echo(McpAsyncServerExchange exchange, CallToolRequest req) {
    return Mono.just(text(String.valueOf(req.arguments().get("text"))));
  }

  static Mono<CallToolResult> add(McpAsyncServerExchange exchange, CallToolRequest req) {
    double a = ((Number) req.arguments().get("a")).doubleValue();
    double b = ((Number) req.arguments().get("b")).doubleValue();
    return Mono.just(text(jsNumber(a + b)));
  }

  /** 2025 era (the only one the SDK speaks): a real server→client elicitation/create. */
  static Mono<CallToolResult> confirm(McpAsyncServerExchange exchange, CallToolRequest req) {
    return exchange.createElicitation(ElicitFormRequest.builder("Proceed?", CONFIRM_SCHEMA).build()).map(answer -> {
      boolean yes = answer.action() == ElicitResult.Action.ACCEPT
          && answer.content() != null && Boolean.TRUE.equals(answer.content().get("confirm"));
      return text(yes ? "confirmed: yes" : "confirmed: no");
    });
  }

  /**
   * {@code v} as JavaScript's {@code String(v)} prints it for 1e-6 <= |v| < 1e21 and whole numbers
   * (3 → "3", 0.1+0.2 → "0.30000000000000004"), so add answers the TypeScript targets' text.
   */
  static String jsNumber(double v) {
    if (v == 0) return "0";
    return new BigDecimal(Double.toString(v)).stripTrailingZeros().toPlainString();
  }
}
