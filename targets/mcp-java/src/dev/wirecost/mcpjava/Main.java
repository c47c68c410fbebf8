package dev.wirecost.mcpjava;

import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.CountDownLatch;
import org.eclipse.jetty.ee11.servlet.ServletContextHandler;
import org.eclipse.jetty.ee11.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

/**
 * wirecost's MCP target on the official Java SDK ({@code io.modelcontextprotocol.sdk:mcp}).
 *
 * <pre>
 * java -jar OUT/mcp-java.jar --transport stdio
 * java -jar OUT/mcp-java.jar --transport http --port N   # N=0: the OS picks; 127.0.0.1 only
 * </pre>
 *
 * stdio: the SDK's {@link StdioServerTransportProvider}; HTTP: the SDK's
 * {@link HttpServletStreamableServerTransportProvider} (a servlet) at {@code /mcp} on Jetty 12 (ee11
 * servlet container) bound to 127.0.0.1. Knobs: {@link Knobs}. Exit status: 0 on SIGTERM/SIGINT or
 * end of stdin, 2 on a bad argument or knob (one line naming it), 1 on a start-up failure.
 */
public final class Main {
  /** The only address the target binds. */
  static final String HOST = "127.0.0.1";

  /** The exit status the shutdown hook ends with: 0 for SIGTERM/SIGINT (the JVM's default is 143/130). */
  private static volatile int exitStatus = 0;

  private Main() {}

  /** Exits with {@code status} (the shutdown hook keeps it). */
  static void exit(int status) {
    exitStatus = status;
    System.exit(status);
  }

  /** Parses the command line and the knobs, serves until stopped; never returns normally. */
  public static void main(String[] argv) {
    // SIGTERM/SIGINT run the shutdown hooks; this one ends the JVM at once with exitStatus (0 for a
    // signal): every answer is already flushed, per message.
    Runtime.getRuntime().addShutdownHook(new Thread(() -> Runtime.getRuntime().halt(exitStatus)));
    Knobs knobs;
    Cli cli;
    try {
      cli = Cli.parse(argv);
      knobs = Knobs.fromEnv(System.getenv());
    } catch (IllegalArgumentException e) {
      System.err.println("mcp-java: " + e.getMessage());
      System.err.println(Cli.USAGE);
      exit(2);
      return;
    }
    McpJsonMapper json = McpJsonDefaults.getMapper();
    try {
      if (cli.transport().equals("stdio")) serveStdio(json, knobs);
      else serveHttp(json, knobs, cli.port());
    } catch (Exception e) {
      System.err.println("mcp-java: start-up failed: " + e);
      exit(1);
    }
  }

  /** Serves stdio until stdin ends (exit 0). */
  static void serveStdio(McpJsonMapper json, Knobs knobs) throws InterruptedException {
    // The SDK's transport reads its input stream on a thread of its own; this stream ends the process
    // (exit 0) when stdin ends, as the other targets do (the drivers close stdin after the last answer).
    InputStream stdin = new FilterInputStream(System.in) {
      @Override
      public int read() throws IOException {
        return ended(super.read());
      }

      @Override
      public int read(byte[] b, int off, int len) throws IOException {
        return ended(super.read(b, off, len));
      }

      private int ended(int n) {
        if (n < 0) {
          System.out.flush();
          exit(0);
        }
        return n;
      }
    };
    StdioServerTransportProvider transport = new StdioServerTransportProvider(json, stdin, System.out);
    Tools.register(McpServer.async(transport), knobs).build();
    new CountDownLatch(1).await();
  }

  /** Serves Streamable HTTP at /mcp on 127.0.0.1:port until a signal. */
  static void serveHttp(McpJsonMapper json, Knobs knobs, int port) throws Exception {
    HttpServletStreamableServerTransportProvider transport =
        HttpServletStreamableServerTransportProvider.builder().jsonMapper(json).mcpEndpoint("/mcp").build();
    Tools.register(McpServer.async(transport), knobs).build();
    Server jetty = new Server();
    ServerConnector connector = new ServerConnector(jetty);
    connector.setHost(HOST);
    connector.setPort(port);
    jetty.addConnector(connector);
    ServletContextHandler context = new ServletContextHandler();
    ServletHolder holder = new ServletHolder(transport);
    holder.setAsyncSupported(true);
    context.addServlet(holder, "/*");
    jetty.setHandler(context);
    try {
      jetty.start();
    } catch (java.io.IOException e) {
      System.err.println("mcp-java: cannot listen on " + HOST + ":" + port + ": " + e.getMessage());
      exit(1);
    }
    System.err.println("listening on " + HOST + ":" + connector.getLocalPort());
    jetty.join();
  }
}
