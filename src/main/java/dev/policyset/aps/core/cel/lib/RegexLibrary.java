package dev.policyset.aps.core.cel.lib;

import com.google.re2j.Matcher;
import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;
import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.ast.CelConstant;
import dev.cel.common.ast.CelExpr;
import dev.cel.common.navigation.CelNavigableAst;
import dev.cel.common.navigation.CelNavigableExpr;
import dev.cel.common.types.ListType;
import dev.cel.common.types.SimpleType;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelFunctionBinding;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

import static dev.cel.common.CelOverloadDecl.newMemberOverload;

/**
 * Kubernetes regex library ({@code regex.go}): {@code s.find(re)}, {@code s.findAll(re[, limit])} on RE2
 * (re2j, which follows Go's regexp syntax and messages). A constant pattern is compiled when the program is
 * built, so an invalid one fails at create time ({@link #prepareProgram}).
 */
public final class RegexLibrary extends AbstractKubeLibrary {
    public RegexLibrary() {
        super("regex");
        add("find", newMemberOverload("string_find_string", SimpleType.STRING, SimpleType.STRING, SimpleType.STRING),
                CelFunctionBinding.from("string_find_string", String.class, String.class,
                        (s, re) -> find(s, compile(re))));
        add("findAll", newMemberOverload("string_find_all_string", ListType.create(SimpleType.STRING),
                        SimpleType.STRING, SimpleType.STRING),
                CelFunctionBinding.from("string_find_all_string", String.class, String.class,
                        (s, re) -> findAll(s, compile(re), -1)));
        add("findAll", newMemberOverload("string_find_all_string_int", ListType.create(SimpleType.STRING),
                        SimpleType.STRING, SimpleType.STRING, SimpleType.INT),
                CelFunctionBinding.from("string_find_all_string_int", List.of(String.class, String.class, Long.class),
                        args -> findAll((String) args[0], compile((String) args[1]), (Long) args[2])));
    }

    @Override
    public CelAbstractSyntaxTree prepareProgram(CelAbstractSyntaxTree checked) throws ProgramInstantiationException {
        Iterator<CelNavigableExpr> it = CelNavigableAst.fromAst(checked).getRoot().allNodes().iterator();
        while (it.hasNext()) {
            CelExpr expr = it.next().expr();
            if (expr.exprKind().getKind() != CelExpr.ExprKind.Kind.CALL) {
                continue;
            }
            CelExpr.CelCall call = expr.call();
            if (!call.function().equals("find") && !call.function().equals("findAll")
                    || call.target().isEmpty() || call.args().isEmpty()) {
                continue;
            }
            CelExpr pattern = call.args().get(0);
            if (pattern.exprKind().getKind() == CelExpr.ExprKind.Kind.CONSTANT
                    && pattern.constant().getKind() == CelConstant.Kind.STRING_VALUE) {
                try {
                    Pattern.compile(pattern.constant().stringValue());
                } catch (PatternSyntaxException e) {
                    throw new ProgramInstantiationException(e.getMessage());
                }
            }
        }
        return checked;
    }

    private static Pattern compile(String regex) throws CelEvaluationException {
        try {
            return Pattern.compile(regex);
        } catch (PatternSyntaxException e) {
            throw error("Illegal regex: %s", e.getMessage());
        }
    }

    private static String find(String s, Pattern re) {
        Matcher m = re.matcher(s);
        return m.find() ? m.group() : "";
    }

    /** Go's {@code FindAllString}: an empty match right after the previous match is dropped. */
    static List<String> findAll(String s, Pattern re, long limit) {
        List<String> out = new ArrayList<>();
        long n = limit < 0 ? (long) s.length() + 1 : limit;
        Matcher m = re.matcher(s);
        int pos = 0;
        int prevMatchEnd = -1;
        while (out.size() < n && pos <= s.length()) {
            if (!m.find(pos)) {
                break;
            }
            boolean accept = true;
            if (m.end() == pos) {
                if (m.start() == prevMatchEnd) {
                    accept = false;
                }
                pos += pos < s.length() ? Character.charCount(s.codePointAt(pos)) : 1;
            } else {
                pos = m.end();
            }
            prevMatchEnd = m.end();
            if (accept) {
                out.add(m.group());
            }
        }
        return out;
    }
}
