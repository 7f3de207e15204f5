// urlscope parser adapter: how java.net.URI reads a URL (not java.net.URL, which reads
// differently). A single-file program: urlscope compiles it once (`javac --release 11`) and runs
// `java -cp CLASSES JavaUri`, or runs `java JavaUri.java` where there is no javac.
//
// Speaks urlscope's adapter protocol (JSON Lines, see docs/diff.md): one hello line, then one
// reading per request line, in order. With a base: new URI(base).resolve(new URI(input)).

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

public class JavaUri {
    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        PrintWriter out = new PrintWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8));
        out.print("{\"urlscope-adapter\":1,\"available\":true,\"version\":" + quote(System.getProperty("java.version")) + "}\n");
        out.flush();
        String line;
        while ((line = in.readLine()) != null) {
            Map<String, Object> request;
            try {
                request = new Json(line).object();
            } catch (RuntimeException e) {
                out.print("{\"id\":null,\"failure\":true,\"error\":" + quote("bad request: " + e.getMessage()) + "}\n");
                out.flush();
                continue;
            }
            out.print(read(request) + "\n");
            out.flush();
        }
    }

    static String read(Map<String, Object> request) {
        Object id = request.get("id");
        String idText = id == null ? "null" : id.toString();
        URI uri;
        try {
            uri = new URI((String) request.get("input"));
            Object base = request.get("base");
            if (base != null) {
                uri = new URI((String) base).resolve(uri);
            }
        } catch (Exception e) {
            return "{\"id\":" + idText + ",\"failure\":true,\"error\":" + quote(e.getClass().getSimpleName() + ": " + e.getMessage()) + "}";
        }
        String userInfo = uri.getRawUserInfo();
        String username = null;
        String password = null;
        if (userInfo != null) {
            int colon = userInfo.indexOf(':');
            username = colon < 0 ? userInfo : userInfo.substring(0, colon);
            password = colon < 0 ? null : userInfo.substring(colon + 1);
        }
        // getPort() is -1 when the URI has no port.
        String port = uri.getPort() < 0 ? null : Integer.toString(uri.getPort());
        // An opaque URI (mailto:x) has no path; its scheme-specific part stands in for it.
        String path = uri.isOpaque() ? uri.getRawSchemeSpecificPart() : uri.getRawPath();
        return "{\"id\":" + idText + ",\"failure\":false,\"error\":null"
            + ",\"scheme\":" + quote(uri.getScheme())
            + ",\"username\":" + quote(username)
            + ",\"password\":" + quote(password)
            + ",\"host\":" + quote(uri.getHost())
            + ",\"port\":" + quote(port)
            + ",\"path\":" + quote(path)
            + ",\"query\":" + quote(uri.getRawQuery())
            + ",\"fragment\":" + quote(uri.getRawFragment()) + "}";
    }

    static String quote(String s) {
        if (s == null) return "null";
        StringBuilder b = new StringBuilder("\"");
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"': b.append("\\\""); break;
                case '\\': b.append("\\\\"); break;
                default:
                    if (c < 0x20 || c == 0x7f || c == 0x2028 || c == 0x2029 || Character.isSurrogate(c)) {
                        b.append(String.format("\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
            }
        }
        return b.append('"').toString();
    }

    /** The flat request objects of the protocol: strings, numbers and null. */
    static final class Json {
        private final String s;
        private int i;

        Json(String s) { this.s = s; }

        Map<String, Object> object() {
            Map<String, Object> map = new HashMap<>();
            space();
            expect('{');
            space();
            if (peek() == '}') { i++; return map; }
            while (true) {
                space();
                String key = string();
                space();
                expect(':');
                space();
                map.put(key, value());
                space();
                char c = s.charAt(i++);
                if (c == '}') return map;
                if (c != ',') throw new RuntimeException("expected , or } at " + (i - 1));
            }
        }

        Object value() {
            char c = peek();
            if (c == '"') return string();
            if (s.startsWith("null", i)) { i += 4; return null; }
            int start = i;
            while (i < s.length() && "-+.0123456789eE".indexOf(s.charAt(i)) >= 0) i++;
            if (start == i) throw new RuntimeException("unexpected " + c + " at " + i);
            return s.substring(start, i);
        }

        String string() {
            expect('"');
            StringBuilder b = new StringBuilder();
            while (true) {
                char c = s.charAt(i++);
                if (c == '"') return b.toString();
                if (c != '\\') { b.append(c); continue; }
                char e = s.charAt(i++);
                switch (e) {
                    case 'n': b.append('\n'); break;
                    case 't': b.append('\t'); break;
                    case 'r': b.append('\r'); break;
                    case 'b': b.append('\b'); break;
                    case 'f': b.append('\f'); break;
                    case 'u': b.append((char) Integer.parseInt(s.substring(i, i + 4), 16)); i += 4; break;
                    default: b.append(e);
                }
            }
        }

        char peek() { return s.charAt(i); }

        void space() { while (i < s.length() && Character.isWhitespace(s.charAt(i))) i++; }

        void expect(char c) {
            if (s.charAt(i) != c) throw new RuntimeException("expected " + c + " at " + i);
            i++;
        }
    }
}
