package io.paddlejobs.planning;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Where an entry point starts Paddle's launcher ({@code python -m paddle.distributed.launch} or its
 * console script {@code fleetrun}), and the flags it gives it. Read the way a shell splits words (quotes
 * kept together, {@code ;}, {@code &&}, {@code |} and a new line end a command); a flag whose value holds
 * a {@code $} is left out: only the shell knows it.
 *
 * @param flags the launcher's flags before the training script, {@code --name=value} and {@code --name value} alike
 */
record LauncherCommand(Map<String, String> flags) {

    private static final String MODULE = "paddle.distributed.launch";
    private static final String CONSOLE_SCRIPT = "fleetrun";
    private static final Set<String> COMMAND_ENDS = Set.of(";", "&&", "||", "|", "&", "\n");

    /** The first launcher the entry point starts; empty when it starts none. */
    static Optional<LauncherCommand> find(String entryPoint) {
        List<String> words = words(entryPoint);
        for (int i = 0; i < words.size(); i++) {
            String word = words.get(i);
            boolean module = word.equals(MODULE) && i > 0 && words.get(i - 1).equals("-m");
            boolean script = word.equals(CONSOLE_SCRIPT) || word.endsWith("/" + CONSOLE_SCRIPT);
            if (module || script) {
                return Optional.of(new LauncherCommand(flagsFrom(words, i + 1)));
            }
        }
        return Optional.empty();
    }

    /** Every launcher option takes a value; the first word that is no option is the training script. */
    private static Map<String, String> flagsFrom(List<String> words, int from) {
        Map<String, String> flags = new LinkedHashMap<>();
        for (int i = from; i < words.size(); i++) {
            String word = words.get(i);
            if (COMMAND_ENDS.contains(word) || !word.startsWith("--")) {
                break;
            }
            int equals = word.indexOf('=');
            String name = equals < 0 ? word : word.substring(0, equals);
            String value = equals >= 0 ? word.substring(equals + 1)
                    : i + 1 < words.size() && !COMMAND_ENDS.contains(words.get(i + 1)) ? words.get(++i) : "";
            if (!value.contains("$")) {
                flags.put(name, value);
            }
        }
        return flags;
    }

    /** Shell words, quotes removed; command separators are words of their own. */
    static List<String> words(String text) {
        List<String> words = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        char quote = 0;
        boolean inWord = false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                } else {
                    word.append(c);
                }
            } else if (c == '\'' || c == '"') {
                quote = c;
                inWord = true;
            } else if (c == '\\' && i + 1 < text.length()) {
                word.append(text.charAt(++i));
                inWord = true;
            } else if (c == ' ' || c == '\t' || c == '\n' || c == ';' || c == '&' || c == '|') {
                if (inWord) {
                    words.add(word.toString());
                    word.setLength(0);
                    inWord = false;
                }
                if (c == '\n' || c == ';') {
                    words.add(c == '\n' ? "\n" : ";");
                } else if (c == '&' || c == '|') {
                    boolean doubled = i + 1 < text.length() && text.charAt(i + 1) == c;
                    words.add(doubled ? "" + c + c : "" + c);
                    i += doubled ? 1 : 0;
                }
            } else {
                word.append(c);
                inWord = true;
            }
        }
        if (inWord) {
            words.add(word.toString());
        }
        return words;
    }
}
