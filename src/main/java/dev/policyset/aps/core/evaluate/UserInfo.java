package dev.policyset.aps.core.evaluate;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** {@code request.userInfo}: who makes the request (authentication/v1 UserInfo). */
public record UserInfo(String username, String uid, List<String> groups, Map<String, List<String>> extra) {
    public UserInfo {
        username = username == null ? "" : username;
        uid = uid == null ? "" : uid;
        groups = groups == null ? List.of() : List.copyOf(groups);
        extra = extra == null ? Map.of() : Map.copyOf(extra);
    }

    /** What a test case gets when it names no user. */
    public static final UserInfo ANONYMOUS = new UserInfo("", "", List.of(), Map.of());

    /** As the API server serialises it: empty fields are omitted ({@code omitempty}). */
    Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        if (!username.isEmpty()) {
            m.put("username", username);
        }
        if (!uid.isEmpty()) {
            m.put("uid", uid);
        }
        if (!groups.isEmpty()) {
            m.put("groups", groups);
        }
        if (!extra.isEmpty()) {
            m.put("extra", extra);
        }
        return m;
    }
}
