package dev.policyset.aps.core.cel.lib;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The parts of Go's {@code net/url.Parse} that decide a webhook URL's verdict. */
class GoUrlTest {
    @Test
    void splitsSchemeUserHostQueryFragment() throws Exception {
        GoUrl url = GoUrl.parse("HTTPS://me@hook.example.com:8443/v?x=1#top");
        assertEquals("https", url.scheme());
        assertEquals("me", url.user());
        assertEquals("hook.example.com:8443", url.host());
        assertEquals("x=1", url.rawQuery());
        assertEquals("top", url.fragment());
    }

    @Test
    void acceptsWhatGoAccepts() throws Exception {
        assertEquals("", GoUrl.parse("").host());
        assertEquals("", GoUrl.parse("https:opaque").host());
        assertEquals("[::1]:443", GoUrl.parse("https://[::1]:443/x").host());
        assertEquals("", GoUrl.parse("https://h/?").rawQuery());
        assertEquals("", GoUrl.parse("https://h/#").fragment());
        assertNull(GoUrl.parse("https://h/a b").user());
    }

    @Test
    void refusesWhatGoRefuses() {
        for (String bad : new String[] {"https://exa mple.com", "https://h:port", ":no-scheme", " https://h",
                "https://h/%zz", "https://[::1", "https://h\n", "https://a b@h"}) {
            assertThrows(GoUrl.UrlException.class, () -> GoUrl.parse(bad), bad);
        }
    }
}
