package dev.wirecost.mcpjava;

/**
 * The command line: {@code --transport stdio | --transport http [--port N]} (also {@code --opt=value}).
 *
 * @param transport "stdio" or "http"
 * @param port the HTTP port on 127.0.0.1 (0: the OS picks); 0 for stdio
 */
record Cli(String transport, int port) {
  static final String USAGE = "usage: mcp-java --transport stdio | --transport http [--port N]";

  /**
   * @throws IllegalArgumentException naming the fault: an unknown or repeated option, a missing
   *     value, a missing or unknown transport, --port with stdio, a port outside 0–65535
   */
  static Cli parse(String[] argv) {
    String transport = null;
    String port = null;
    for (int i = 0; i < argv.length; i++) {
      String arg = argv[i];
      int eq = arg.indexOf('=');
      String name = eq < 0 ? arg : arg.substring(0, eq);
      String value;
      if (eq >= 0) value = arg.substring(eq + 1);
      else if (i + 1 < argv.length) value = argv[++i];
      else throw new IllegalArgumentException(name + " needs a value");
      switch (name) {
        case "--transport" -> {
          if (transport != null) throw new IllegalArgumentException("--transport given twice");
          transport = value;
        }
        case "--port" -> {
          if (port != null) throw new IllegalArgumentException("--port given twice");
          port = value;
        }
        default -> throw new IllegalArgumentException("unknown argument '" + arg + "'");
      }
    }
    if (transport == null) throw new IllegalArgumentException("--transport is required");
    switch (transport) {
      case "stdio":
        if (port != null) throw new IllegalArgumentException("--port applies to --transport http only");
        return new Cli("stdio", 0);
      case "http":
        String raw = port == null ? "0" : port;
        if (!raw.matches("[0-9]{1,5}") || Integer.parseInt(raw) > 65535)
          throw new IllegalArgumentException("--port " + raw + " is not a port: give a number from 0 to 65535");
        return new Cli("http", Integer.parseInt(raw));
      default:
        throw new IllegalArgumentException("unknown transport \"" + transport + "\": use stdio or http");
    }
  }
}
