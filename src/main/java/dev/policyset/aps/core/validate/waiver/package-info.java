/**
 * Waivers for objects no set owns (bare objects: a vendor chart rendered to YAML): the
 * {@value dev.policyset.aps.core.model.Exemption#ANNOTATION} annotation and a repository's {@code .aps.yaml}, read
 * into the same {@link dev.policyset.aps.core.model.Exemption}s as a set's {@code spec.safety.exemptions}, which the
 * validator applies along one path. Pure: no files, no clock (the caller reads the file and passes the date).
 *
 * <p>Only safety rules ({@code APSnnn}) can be waived: {@code api/*}, {@code cel/*} and {@code input/*} say the API
 * server would refuse the object (or it could not be read), which no waiver changes; APS403 guards another owner's
 * object; the APS9xx rules report on the waivers themselves.
 */
package dev.policyset.aps.core.validate.waiver;
