#pragma once
#include "softsim/contact/barrier/obstacle_barrier.hpp"
