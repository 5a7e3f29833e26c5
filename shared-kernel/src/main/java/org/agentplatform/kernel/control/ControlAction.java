package org.agentplatform.kernel.control;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The actions of the control surfaces. {@code screenshot} is an {@code info} operation (it reads the screen and
 * changes nothing, like the geometry read); the others are atomic actions and share the other budget.
 */
public enum ControlAction {
    SCREENSHOT("screenshot", true, EnumSet.allOf(ControlSurface.class)),
    CLICK("click", false, EnumSet.of(ControlSurface.COMPUTER)),
    MOVE("move", false, EnumSet.of(ControlSurface.COMPUTER)),
    SCROLL("scroll", false, EnumSet.allOf(ControlSurface.class)),
    TYPE("type", false, EnumSet.allOf(ControlSurface.class)),
    KEY("key", false, EnumSet.allOf(ControlSurface.class)),
    TAP("tap", false, EnumSet.of(ControlSurface.MOBILE)),
    SWIPE("swipe", false, EnumSet.of(ControlSurface.MOBILE)),
    PRESS_BUTTON("press_button", false, EnumSet.of(ControlSurface.MOBILE));

    private final String wireName;
    private final boolean info;
    private final Set<ControlSurface> surfaces;

    ControlAction(String wireName, boolean info, Set<ControlSurface> surfaces) {
        this.wireName = wireName;
        this.info = info;
        this.surfaces = surfaces;
    }

    public String wireName() {
        return wireName;
    }

    /** An {@code info} operation (300 per minute) rather than an atomic action (60 per minute). */
    public boolean isInfo() {
        return info;
    }

    public boolean belongsTo(ControlSurface surface) {
        return surfaces.contains(surface);
    }

    /** The actions of a surface, in the order the contract lists them. */
    public static List<ControlAction> of(ControlSurface surface) {
        return Arrays.stream(values()).filter(action -> action.belongsTo(surface)).toList();
    }

    public static Optional<ControlAction> fromWireName(String wireName) {
        return Arrays.stream(values()).filter(action -> action.wireName.equals(wireName)).findFirst();
    }
}
