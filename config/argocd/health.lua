-- Argo CD health check for admission.policyset.dev/AdmissionPolicySet.
-- Install: docs/gitops.md (argocd-cm resource.customizations.health.admission.policyset.dev_AdmissionPolicySet).
-- Reads the kstatus conditions the operator writes (Ready, Reconciling, Stalled), in this order:
--   spec.paused                               -> Suspended   (nothing is reconciled on purpose)
--   no status yet, or observedGeneration
--   behind metadata.generation                -> Progressing (the operator has not seen this spec yet)
--   Stalled=True                              -> Degraded    (needs a spec change: validation, ownership, dry run)
--   Reconciling=True                          -> Progressing (applying, or retrying an API error)
--   Ready=True                                -> Healthy
--   Ready=False                               -> Degraded
--   otherwise                                 -> Progressing
-- Tested in the project's suite (ArgoHealthCheckTest) with a Lua interpreter.
local hs = {}

local function condition(status, type)
  if status == nil or status.conditions == nil then
    return nil
  end
  for _, c in ipairs(status.conditions) do
    if c.type == type then
      return c
    end
  end
  return nil
end

local function text(c, fallback)
  if c ~= nil and c.message ~= nil and c.message ~= "" then
    if c.reason ~= nil and c.reason ~= "" then
      return c.reason .. ": " .. c.message
    end
    return c.message
  end
  return fallback
end

if obj.spec ~= nil and obj.spec.paused == true then
  hs.status = "Suspended"
  hs.message = "spec.paused is true: the operator leaves the generated objects as they are"
  return hs
end

local status = obj.status
local generation = obj.metadata ~= nil and obj.metadata.generation or nil
if status == nil or status.observedGeneration == nil then
  hs.status = "Progressing"
  hs.message = "Waiting for the operator to reconcile the set"
  return hs
end
if generation ~= nil and status.observedGeneration < generation then
  hs.status = "Progressing"
  hs.message = "Waiting for the operator to reconcile generation " .. tostring(generation)
    .. " (status describes " .. tostring(status.observedGeneration) .. ")"
  return hs
end

local stalled = condition(status, "Stalled")
if stalled ~= nil and stalled.status == "True" then
  hs.status = "Degraded"
  hs.message = text(stalled, "The set cannot be applied without a change")
  return hs
end

local reconciling = condition(status, "Reconciling")
if reconciling ~= nil and reconciling.status == "True" then
  hs.status = "Progressing"
  hs.message = text(reconciling, "The operator is applying the set")
  return hs
end

local ready = condition(status, "Ready")
if ready ~= nil and ready.status == "True" then
  hs.status = "Healthy"
  hs.message = text(ready, "Applied")
  return hs
end
if ready ~= nil and ready.status == "False" then
  hs.status = "Degraded"
  hs.message = text(ready, "Not ready")
  return hs
end

hs.status = "Progressing"
hs.message = "Waiting for the Ready condition"
return hs
