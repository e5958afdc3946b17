#pragma once
#include "softsim/contact/obstacle_barrier.hpp"
